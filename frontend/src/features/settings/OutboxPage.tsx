import { Badge, Center, Group, Loader, Pagination, Select, Stack, Table, Text } from '@mantine/core';
import { formatDateTime } from '../../components/dates';
import { EmptyRow } from '../../components/EmptyRow';
import { asApiError, ErrorDisplay } from '../../components/ErrorDisplay';
import { PageCard } from '../../components/PageCard';
import { pageCount, rangeText } from '../../components/paging';
import { TableScroll } from '../../components/TableScroll';
import { TableHead } from '../../components/TableHead';
import { PAGE_SIZES } from '../../components/urlState';
import { useUrlState } from '../../components/useUrlState';
import { useGetOutboxQuery, type OutboxMail, type OutboxStatus } from './api';
import { clearable } from '../../lib/clearable';

const OUTBOX_FILTERS = { Status: 'code' } as const;

/** Each state in words (never by colour alone). */
const STATUSES: { value: OutboxStatus; label: string; color: string }[] = [
  { value: 'pending', label: 'Waiting', color: 'yellow' },
  { value: 'sending', label: 'Sending', color: 'blue' },
  { value: 'sent', label: 'Sent', color: 'green' },
  { value: 'failed', label: 'Failed', color: 'red' },
];

const when = (at?: string | null) => (at ? formatDateTime(at) : '–');

function Outcome({ mail }: { mail: OutboxMail }) {
  if (mail.status === 'sent') return <>{mail.deliveredBy === 'log' ? 'Written to the log (no relay)' : `Sent ${when(mail.sentAt)}`}</>;
  if (mail.status === 'pending' && mail.attempts > 0) return <>{`Next try ${when(mail.nextAttemptAt)}: ${mail.lastError ?? ''}`}</>;
  return <>{mail.lastError ?? '–'}</>;
}

/** The outbox: every mail MentorPay queued, what waits, what went out and what failed. */
export default function OutboxPage() {
  const url = useUrlState(OUTBOX_FILTERS);
  const { page, size } = url.table;
  const status = url.values.Status;
  const outbox = useGetOutboxQuery({ ...(status ? { Status: status } : {}), Page: String(page), Size: String(size) });
  const total = outbox.data?.totalCount ?? 0;

  return (
    <PageCard title="Outbox">
      <Group align="flex-end" gap="md">
        <Select
          label="Status"
          placeholder="Any status"
          data={STATUSES.map((s) => ({ value: s.value, label: s.label }))}
          value={status ?? null}
          onChange={(v) => url.setFilters({ Status: v ?? undefined })}
          {...clearable('Status')}
          w={200}
        />
        {outbox.data && (
          <Text size="sm" data-testid="outbox-waiting">
            {outbox.data.waiting} waiting to be sent
          </Text>
        )}
      </Group>
      {outbox.error ? (
        <ErrorDisplay error={asApiError(outbox.error)} />
      ) : outbox.isLoading ? (
        <Center py="xl">
          <Loader aria-label="Loading" />
        </Center>
      ) : (
        <Stack gap="sm">
          <TableScroll label="Outbox" minWidth={900}>
            <Table striped withTableBorder aria-label="Outbox" data-testid="outbox-table" opacity={outbox.isFetching ? 0.6 : 1}>
              <TableHead columns={['Queued ↓', 'To', 'Subject', 'Status', 'Attempts', 'Outcome']} />
              <Table.Tbody>
                {outbox.data?.items.map((mail) => {
                  const s = STATUSES.find((x) => x.value === mail.status);
                  return (
                    <Table.Tr key={mail.id}>
                      <Table.Td>{when(mail.createdAt)}</Table.Td>
                      <Table.Td>{mail.recipient}</Table.Td>
                      <Table.Td>{mail.subject}</Table.Td>
                      <Table.Td>
                        <Badge color={s?.color} variant="light">
                          {s?.label ?? mail.status}
                        </Badge>
                      </Table.Td>
                      <Table.Td>{mail.attempts}</Table.Td>
                      <Table.Td>
                        <Outcome mail={mail} />
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
                {outbox.data?.items.length === 0 && <EmptyRow columns={6}>No mails{status ? ' in this state' : ' yet'}.</EmptyRow>}
              </Table.Tbody>
            </Table>
          </TableScroll>
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              {rangeText(page, size, total)}
            </Text>
            <Group gap="sm">
              <Select aria-label="Rows per page" data={PAGE_SIZES.map(String)} value={String(size)} onChange={(v) => url.setSize(Number(v ?? size))} allowDeselect={false} w={80} />
              <Pagination total={pageCount(size, total)} value={page} onChange={url.setPage} size="sm" />
            </Group>
          </Group>
        </Stack>
      )}
    </PageCard>
  );
}

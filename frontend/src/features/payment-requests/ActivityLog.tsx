import { Table, Text } from '@mantine/core';
import { ScrollWhenNarrow } from '../../components/TableScroll';
import { asApiError, ErrorDisplay } from '../../components/ErrorDisplay';
import { PageCard } from '../../components/PageCard';
import { TableHead } from '../../components/TableHead';
import { useGetPaymentRequestActivityQuery, type PaymentRequest } from './api';
import { formatDateTime } from '../../components/dates';
import { actionWords, statusChange } from './activityWords';

/** Who did what to the request, newest first (GET /payment-requests/activity-log). */
export function ActivityLog({ request }: { request: PaymentRequest }) {
  const log = useGetPaymentRequestActivityQuery({ formType: request.formType, id: request.id });
  return (
    <PageCard title="Activity log" level={2}>
      {log.error ? (
        <ErrorDisplay error={asApiError(log.error)} />
      ) : log.data && log.data.length === 0 ? (
        <Text c="dimmed">Nothing recorded yet.</Text>
      ) : (
        <ScrollWhenNarrow label="Activity log" minWidth={640}>
        <Table aria-label="Activity log" striped>
          <TableHead columns={['When', 'Who', 'Action', 'Status', 'Comment']} />
          <Table.Tbody>
            {(log.data ?? []).map((e) => (
              <Table.Tr key={e.id}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(e.createdAt)}</Table.Td>
                {/* No person: the application itself (reminders, escalations), named as the audit trail names it. */}
                <Table.Td>{e.actorName ?? 'MentorPay'}</Table.Td>
                <Table.Td>{actionWords(e.action)}</Table.Td>
                <Table.Td>{statusChange(e.fromStatus, e.toStatus)}</Table.Td>
                <Table.Td>{e.comment ?? ''}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        </ScrollWhenNarrow>
      )}
    </PageCard>
  );
}

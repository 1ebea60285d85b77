import { Alert, Anchor, Button, Center, Group, List, Loader, Pagination, Select, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { Link } from 'react-router';
import { formatDateTime } from '../../components/dates';
import { apiUrl, minutesOffset } from '../../components/download';
import { EmptyRow } from '../../components/EmptyRow';
import { asApiError, ErrorDisplay } from '../../components/ErrorDisplay';
import { ExportMenu } from '../../components/ExportMenu';
import { PageCard } from '../../components/PageCard';
import { pageCount, rangeText } from '../../components/paging';
import { TableScroll } from '../../components/TableScroll';
import { fieldErrors } from '../../components/fieldErrors';
import { FilterFooter } from '../../components/FilterFooter';
import { TableHead } from '../../components/TableHead';
import { PAGE_SIZES, type ParamValues } from '../../components/urlState';
import { useTypedFilter } from '../../components/useTypedFilter';
import { useUrlState } from '../../components/useUrlState';
import { useHasPermission } from '../../lib/hooks';
import { useIdentityUsersQuery } from '../../lib/identityLists';
import { useGetAuditLogQuery, useLazyVerifyAuditLogQuery, type AuditEntry } from './api';
import { entityLabel, recordOf } from './words';
import { clearable } from '../../lib/clearable';

const AUDIT_FILTERS = { EntityType: 'text', EntityId: 'id', ActorId: 'id', Action: 'text', From: 'date', To: 'date' } as const;

/** The kinds of record the trail names most; one named in the address bar is offered too. */
const ENTITY_TYPES = ['participant', 'participation', 'payment_request', 'budget-line', 'fiscal-year', 'setting', 'user', 'role', 'vendor-payment', 'receipt'];

function Changes({ entry }: { entry: AuditEntry }) {
  // The server names every record a change refers to, as the files do.
  const changes = entry.changes;
  if (changes.length === 0) return <Text c="dimmed">—</Text>;
  return (
    <List size="sm" spacing={2} listStyleType="none" data-testid="audit-changes">
      {changes.map((c) => (
        <List.Item key={c.field}>
          <Text span fw={600} size="sm">
            {c.label}:
          </Text>{' '}
          {c.before !== undefined && c.after !== undefined ? (
            <>
              <Text span size="sm" td="line-through" c="dimmed">
                {c.before}
              </Text>
              {' → '}
              <Text span size="sm">
                {c.after}
              </Text>
            </>
          ) : (
            <Text span size="sm">
              {c.after ?? c.before}
            </Text>
          )}
        </List.Item>
      ))}
    </List>
  );
}

function Who({ entry }: { entry: AuditEntry }) {
  const actor = entry.actor;
  const name = actor?.fullName || actor?.email;
  return (
    <Stack gap={0}>
      <Text size="sm">{name ?? (entry.ip ? 'Not signed in' : 'MentorPay')}</Text>
      {actor?.fullName && actor.email && (
        <Text size="xs" c="dimmed">
          {actor.email}
        </Text>
      )}
      {entry.ip && (
        <Text size="xs" c="dimmed">
          from {entry.ip}
        </Text>
      )}
    </Stack>
  );
}

function RecordCell({ entry }: { entry: AuditEntry }) {
  const { to } = recordOf(entry);
  return to ? (
    <Anchor component={Link} to={to} size="sm">
      {entry.record}
    </Anchor>
  ) : (
    <Text size="sm">{entry.record}</Text>
  );
}

/** The chain recomputed on request: every entry's hash over the one before it. */
function ChainCheck() {
  const [verify, verdict] = useLazyVerifyAuditLogQuery();
  return (
    <Stack gap={6} align="flex-end">
      <Button variant="default" onClick={() => void verify()} loading={verdict.isFetching}>
        Check the chain
      </Button>
      <div role="status">
        {verdict.error ? (
          <Text size="sm" c="red.8">
            {asApiError(verdict.error).detail ?? 'The check failed.'}
          </Text>
        ) : verdict.data && !verdict.isFetching ? (
          verdict.data.ok ? (
            <Text size="sm" c="green.9" data-testid="chain-ok">
              {`All ${verdict.data.entries.toLocaleString()} entries are intact.`}
            </Text>
          ) : (
            <Alert color="red" variant="light" p="xs" title="The trail was changed" data-testid="chain-broken">
              {`Entry #${verdict.data.firstBrokenId} does not match the chain: it or an entry before it was changed outside MentorPay.`}
            </Alert>
          )
        ) : null}
      </div>
    </Stack>
  );
}

type Values = ParamValues<typeof AUDIT_FILTERS>;

function Filters({ values, errors, onChange, onClear }: { values: Values; errors: Record<string, string>; onChange: (patch: Values) => void; onClear: () => void }) {
  const canReadUsers = useHasPermission('user:read');
  const users = useIdentityUsersQuery({ page: 1, size: 500 }, { skip: !canReadUsers });
  const entityId = useTypedFilter(values.EntityId, (v) => onChange({ EntityId: v }));
  const action = useTypedFilter(values.Action, (v) => onChange({ Action: v }));
  const types = values.EntityType && !ENTITY_TYPES.includes(values.EntityType) ? [...ENTITY_TYPES, values.EntityType] : ENTITY_TYPES;
  const userOptions = (users.data?.items ?? []).map((u) => ({ value: String(u.id), label: `${u.firstName} ${u.lastName} (${u.email})` }));
  if (values.ActorId && !userOptions.some((o) => o.value === values.ActorId)) userOptions.push({ value: values.ActorId, label: `User #${values.ActorId}` });
  const active = Object.values(values).some(Boolean);
  return (
    <form role="search" aria-label="Audit trail filters" onSubmit={(e) => e.preventDefault()}>
      <SimpleGrid cols={{ base: 2, md: 3, lg: 6 }} spacing="sm">
        <Select
          label="Record"
          placeholder="Any record"
          data={types.map((t) => ({ value: t, label: entityLabel(t) }))}
          value={values.EntityType ?? null}
          onChange={(v) => onChange({ EntityType: v ?? undefined })}
          {...clearable('Record')}
        />
        <TextInput
          label="Record id"
          inputMode="numeric"
          value={entityId.text}
          onChange={(e) => entityId.setText(e.currentTarget.value.replace(/\D/g, ''))}
          onKeyDown={(e) => {
            if (e.key === 'Enter') entityId.commit();
          }}
        />
        <Select
          label="Who"
          placeholder="Anyone"
          data={userOptions}
          value={values.ActorId ?? null}
          onChange={(v) => onChange({ ActorId: v ?? undefined })}
          searchable
          {...clearable('Who')}
        />
        <TextInput
          label="What happened"
          placeholder="updated, approved, …"
          value={action.text}
          onChange={(e) => action.setText(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') action.commit();
          }}
        />
        <TextInput type="date" label="From" value={values.From ?? ''} onChange={(e) => onChange({ From: e.currentTarget.value || undefined })} />
        <TextInput type="date" label="To" value={values.To ?? ''} min={values.From} error={errors.To} onChange={(e) => onChange({ To: e.currentTarget.value || undefined })} />
      </SimpleGrid>
      <FilterFooter note="Days are inclusive, in UTC." active={active} onClear={onClear} />
    </form>
  );
}

/** The audit trail: every change and sign-in, newest first, each change field by field. */
export default function AuditLogPage() {
  const url = useUrlState(AUDIT_FILTERS);
  const { page, size } = url.table;
  const trail = useGetAuditLogQuery({ ...url.filters, Page: String(page), Size: String(size) });
  const total = trail.data?.totalCount ?? 0;
  const exact = trail.data?.totalCountIsExact ?? true;
  const filtered = Object.keys(url.filters).length > 0;

  return (
    <PageCard
      title="Audit trail"
      actions={
        <Group gap="sm" align="flex-start" wrap="nowrap">
          <ChainCheck />
          <ExportMenu fallbackName="audit-log" url={(format) => apiUrl('/audit-log/retrieve', { ...url.filters, ReportFormat: format, MinutesOffset: minutesOffset() })} />
        </Group>
      }
    >
      <Filters values={url.values} errors={fieldErrors(trail.error)} onChange={url.setFilters} onClear={url.clearFilters} />
      {trail.error ? (
        <ErrorDisplay error={asApiError(trail.error)} />
      ) : trail.isLoading ? (
        <Center py="xl">
          <Loader aria-label="Loading" />
        </Center>
      ) : (
        <Stack gap="sm">
          <TableScroll label="Audit trail" minWidth={960}>
            <Table striped withTableBorder aria-label="Audit trail" data-testid="audit-table" opacity={trail.isFetching ? 0.6 : 1} verticalSpacing="xs">
              <TableHead columns={['When ↓', 'Who', 'What happened', 'Record', 'Changes']} />
              <Table.Tbody>
                {trail.data?.items.map((entry) => (
                  <Table.Tr key={entry.id} data-testid="audit-row">
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(entry.at)}</Table.Td>
                    <Table.Td>
                      <Who entry={entry} />
                    </Table.Td>
                    <Table.Td>{entry.actionLabel}</Table.Td>
                    <Table.Td>
                      <RecordCell entry={entry} />
                    </Table.Td>
                    <Table.Td>
                      <Changes entry={entry} />
                    </Table.Td>
                  </Table.Tr>
                ))}
                {trail.data?.items.length === 0 && <EmptyRow columns={5}>{filtered ? 'No entries match these filters.' : 'Nothing has been recorded yet.'}</EmptyRow>}
              </Table.Tbody>
            </Table>
          </TableScroll>
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              {rangeText(page, size, total, exact)}
            </Text>
            <Group gap="sm">
              <Select aria-label="Rows per page" data={PAGE_SIZES.map(String)} value={String(size)} onChange={(v) => url.setSize(Number(v ?? size))} allowDeselect={false} w={80} />
              <Pagination total={pageCount(size, total, exact)} value={page} onChange={url.setPage} size="sm" />
            </Group>
          </Group>
        </Stack>
      )}
    </PageCard>
  );
}

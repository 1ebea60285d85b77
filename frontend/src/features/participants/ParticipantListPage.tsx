import { Anchor, Button, Group } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { formatDate } from '../../components/dates';
import { DataTable } from '../../components/DataTable';
import { asApiError, ErrorDisplay } from '../../components/ErrorDisplay';
import { PageCard } from '../../components/PageCard';
import { PermissionGate } from '../../components/PermissionGate';
import { useHasPermission } from '../../lib/hooks';
import { useGetParticipantsQuery, type ParticipantRow } from './api';
import type { RefItem } from '../../api/wire';
import { EmptyList } from '../../components/EmptyList';
import { activeFilterCount } from '../../components/urlState';
import { useUrlState } from '../../components/useUrlState';
import { PARTICIPANT_FILTERS, participantFilterPatch } from './listQuery';
import { useParticipantLookups } from './lookups';
import { nameByCode } from './options';
import { ParticipantFilters } from './ParticipantFilters';
import { StatusBadge } from './StatusBadge';

// Sort keys GET /participants understands (SortBy), one per sortable column id.
function columns(roles: RefItem[] | undefined, districtTypes: RefItem[] | undefined): ColumnDef<ParticipantRow, unknown>[] {
  return [
    {
      id: 'fullName',
      header: 'Full name',
      cell: ({ row }) => (
        <Anchor component={Link} to={`/participant/${row.original.id}/details`} fw={500}>
          {row.original.fullName}
        </Anchor>
      ),
    },
    { id: 'email', header: 'E-mail', cell: ({ row }) => row.original.email },
    { id: 'roleCode', header: 'Role', cell: ({ row }) => nameByCode(roles, row.original.roleCode) },
    { id: 'status', header: 'Status', cell: ({ row }) => <StatusBadge status={row.original.status} /> },
    {
      id: 'district',
      header: 'District',
      enableSorting: false,
      cell: ({ row }) =>
        row.original.districtSetType
          ? `${nameByCode(districtTypes, row.original.districtSetType)} ${row.original.districtId ?? ''}`.trim()
          : '',
    },
    {
      id: 'updatedAt',
      header: 'Last change',
      cell: ({ row }) => formatDate(row.original.updatedAt),
    },
  ];
}

export default function ParticipantListPage() {
  const url = useUrlState(PARTICIPANT_FILTERS);
  const lookups = useParticipantLookups();
  const list = useGetParticipantsQuery(url.params);
  const cols = useMemo(() => columns(lookups.roles, lookups.districtTypes), [lookups.roles, lookups.districtTypes]);
  const filtered = activeFilterCount(url.values) > 0;
  // An import both creates and updates participants.
  const mayCreate = useHasPermission('participant:create');
  const mayEdit = useHasPermission('participant:edit');
  const canImport = mayCreate && mayEdit;

  return (
    <PageCard
      title="Participant Management"
      actions={
        <Group gap="sm">
          {canImport && (
            <Button variant="default" component={Link} to="/participant/import">
              Import…
            </Button>
          )}
          <PermissionGate permission={'participant:create'} fallback={null}>
            <Button component={Link} to="/participant/create">
              Create participant
            </Button>
          </PermissionGate>
        </Group>
      }
    >
      <ParticipantFilters
        filters={url.values}
        lookups={lookups}
        onChange={(patch) => url.setFilters(participantFilterPatch(patch))}
        onClear={url.clearFilters}
      />
      {lookups.error && <ErrorDisplay error={asApiError(lookups.error)} title="Some filter choices could not be loaded" />}
      {list.error ? (
        <ErrorDisplay error={asApiError(list.error)} />
      ) : (
        <DataTable
          label="Participants"
          columns={cols}
          rows={list.data?.items ?? []}
          rowKey={(row) => row.id}
          {...url.pagedTable(list)}
          empty={<EmptyList filtered={filtered} none="No participants yet." noMatch="No participants match these filters." />}
        />
      )}
    </PageCard>
  );
}

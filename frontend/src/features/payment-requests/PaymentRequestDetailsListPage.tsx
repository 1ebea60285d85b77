import { useReferenceListQuery } from '../../lib/referenceLists';
import { ActionIcon, Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { DataTable } from '../../components/DataTable';
import { asApiError, ErrorDisplay } from '../../components/ErrorDisplay';
import { formatDate, formatDateTime } from '../../components/dates';
import { formatCents, formatMoney } from '../../components/money';
import { PageCard } from '../../components/PageCard';
import { useGetPaymentRequestsQuery, type PaymentRequestListItem } from './api';
import type { RefItem } from '../../api/wire';
import { EmptyList } from '../../components/EmptyList';
import { activeFilterCount } from '../../components/urlState';
import { useUrlState } from '../../components/useUrlState';
import { pageTotalsCents, REQUEST_FILTERS, REQUEST_LIST_SHAPE, type RequestFilterValues } from './listQuery';
import { formTypeName, usePayeeNames } from './names';
import { ProgramFilter, RequestFilters } from './RequestFilters';
import { RequestDetailsPanel } from './RequestDetailsPanel';
import { Nowrap, StatusCell } from './cells';
import { requestRef } from '../../lib/labels';

const label = (r: PaymentRequestListItem) => requestRef(r.formType, r.id);

interface Names {
  types?: RefItem[];
  programs?: RefItem[];
  payees: Map<number, string>;
}

function columns(
  names: Names,
  expanded: Set<number>,
  toggle: (id: number) => void,
  totals: { requested: number; approved: number },
): ColumnDef<PaymentRequestListItem, unknown>[] {
  return [
    {
      id: 'id',
      header: 'Request',
      enableSorting: false,
      // Two facts per cell here, in the payee's and the approval's: twelve columns do not fit 1280 px.
      cell: ({ row }) => {
        const r = row.original;
        const open = expanded.has(r.id);
        return (
          <Group gap={6} wrap="nowrap" align="flex-start">
            <ActionIcon
              variant="subtle"
              size="sm"
              mt={2}
              aria-expanded={open}
              aria-controls={open ? `request-details-${r.id}` : undefined}
              aria-label={`${open ? 'Hide' : 'Show'} details of ${label(r)}`}
              onClick={() => toggle(r.id)}
            >
              <Text span aria-hidden fz={10}>
                {open ? '▼' : '▶'}
              </Text>
            </ActionIcon>
            <div>
              <Anchor component={Link} to={`/payment-request/${r.formType}/${r.id}/details`} fw={500} style={{ whiteSpace: 'nowrap' }}>
                {label(r)}
              </Anchor>
              <Text size="xs" c="dimmed">
                {r.formType} {formTypeName(names.types, r.formType)}
              </Text>
            </div>
          </Group>
        );
      },
      footer: () => 'Page total',
    },
    {
      id: 'payee',
      header: 'Payee and program',
      enableSorting: false,
      cell: ({ row }) => (
        <>
          <Text size="sm">{names.payees.get(row.original.participationId) ?? `#${row.original.participationId}`}</Text>
          <Text size="xs" c="dimmed">
            {names.programs?.find((p) => p.id === row.original.mentorProgramId)?.name ?? `#${row.original.mentorProgramId}`}
          </Text>
        </>
      ),
    },
    {
      id: 'formStatus',
      header: 'Status',
      enableSorting: false,
      cell: ({ row }) => <StatusCell status={row.original.formStatus} />,
    },
    {
      id: 'requestedAmount',
      header: 'Requested',
      enableSorting: false,
      meta: { align: 'right' },
      cell: ({ row }) => <Nowrap>{formatMoney(row.original.requestedAmount)}</Nowrap>,
      footer: () => <span data-testid="page-requested">{formatCents(totals.requested)}</span>,
    },
    {
      id: 'approvedAmount',
      header: 'Approved',
      meta: { align: 'right' },
      // The approval's date under its amount (the UTC date, as the Approved from/until filters
      // read it; the moment in local time on hover).
      cell: ({ row }) =>
        row.original.approvedAmount == null && !row.original.approvedAt ? (
          ''
        ) : (
          <>
            <Nowrap>{row.original.approvedAmount == null ? '' : formatMoney(row.original.approvedAmount)}</Nowrap>
            {row.original.approvedAt && (
              <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }} title={formatDateTime(row.original.approvedAt)}>
                at {formatDate(row.original.approvedAt)}
              </Text>
            )}
          </>
        ),
      footer: () => <span data-testid="page-approved">{formatCents(totals.approved)}</span>,
    },
    { id: 'submittedOn', header: 'Submitted on', cell: ({ row }) => <Nowrap>{formatDate(row.original.submittedOn)}</Nowrap> },
    { id: 'placementEndDate', header: 'Placement end', cell: ({ row }) => <Nowrap>{formatDate(row.original.placementEndDate)}</Nowrap> },
    // Free text last: the one column that may be cut at narrow widths.
    {
      id: 'description',
      header: 'Description',
      enableSorting: false,
      cell: ({ row }) => (
        <Text size="sm" lineClamp={2} miw={100} maw={180} title={row.original.description ?? undefined}>
          {row.original.description ?? ''}
        </Text>
      ),
    },
  ];
}

/**
 * /payment-requests/details: every form type in one flat table, paged and sorted on the
 * server, filters in the address bar (as on the request list); a row opens to show its
 * typed details.
 */
export default function PaymentRequestDetailsListPage() {
  const url = useUrlState(REQUEST_FILTERS, REQUEST_LIST_SHAPE);
  const state = url.values;
  const filtered = activeFilterCount(state) > 0;
  const list = useGetPaymentRequestsQuery(url.params);
  const types = useReferenceListQuery('/payment-requests/types');
  const programs = useReferenceListQuery('/mentor-programs');
  const rows = list.data?.items;
  const payees = usePayeeNames(rows);
  const [expanded, setExpanded] = useState<Set<number>>(new Set());

  const toggle = (id: number) =>
    setExpanded((prev) => {
      const next = new Set(prev);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const totals = useMemo(() => pageTotalsCents(rows ?? []), [rows]);
  const cols = useMemo(
    () => columns({ types: types.data, programs: programs.data, payees }, expanded, toggle, totals),
    [types.data, programs.data, payees, expanded, totals],
  );

  // Opened rows belong to the rows in view: any change of filters, page or sort closes them.
  const closeAll = () => setExpanded(new Set());
  const patch = (p: RequestFilterValues) => {
    closeAll();
    url.setFilters(p);
  };

  return (
    <PageCard
      title="Payment request details"
      actions={
        <Button component={Link} to={`/?${url.search()}`} variant="default">
          Request list
        </Button>
      }
    >
      <Stack gap="md">
        <Paper withBorder radius="md" p="sm" component="section" aria-label="Filters">
          <Stack gap="sm">
            <Group justify="space-between" align="flex-end">
              <Title order={2} size="h5">
                Filters
              </Title>
              {filtered && (
                <Button variant="subtle" size="xs" onClick={() => {
                    closeAll();
                    url.clearFilters();
                  }}>
                  Clear filters
                </Button>
              )}
            </Group>
            <ProgramFilter state={state} onChange={patch} />
            <RequestFilters state={state} onChange={patch} />
          </Stack>
        </Paper>
        {list.error ? (
          <ErrorDisplay error={asApiError(list.error)} title="The payment requests could not be loaded" />
        ) : (
          <DataTable
            label="Payment request details"
            columns={cols}
            rows={rows ?? []}
            rowKey={(row) => row.id}
            {...url.pagedTable(list, { reset: closeAll })}
            empty={<EmptyList filtered={filtered} none="No payment requests match." noMatch="No payment requests match." />}
            renderExpanded={(row) =>
              expanded.has(row.id) ? (
                <div id={`request-details-${row.id}`}>
                  <RequestDetailsPanel formType={row.formType} id={row.id} />
                </div>
              ) : null
            }
          />
        )}
      </Stack>
    </PageCard>
  );
}

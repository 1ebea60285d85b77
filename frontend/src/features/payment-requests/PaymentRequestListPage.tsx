import { useFiscalYearsQuery, useReferenceListQuery } from '../../lib/referenceLists';
import { Alert, Anchor, Badge, Box, Button, Checkbox, Group, Menu, Paper, SimpleGrid, Stack, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { ColumnDef } from '@tanstack/react-table';
import { createContext, useCallback, useContext, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useHasPermission } from '../../lib/hooks';
import { bulkQuestion, fetchAllPages, selectionTotal, toggled, type Selection } from '../../components/bulkAction';
import { BulkActionBar } from '../../components/BulkActionBar';
import { openConfirm } from '../../components/confirmDialogs';
import { DataTable } from '../../components/DataTable';
import { asApiError, ErrorDisplay } from '../../components/ErrorDisplay';
import { formatDate } from '../../components/dates';
import { formatCents, formatMoney, toCents } from '../../components/money';
import { PageCard } from '../../components/PageCard';
import { useBelow } from '../../components/useBelow';
import { PermissionGate } from '../../components/PermissionGate';
import { WelcomeHeader } from '../../components/WelcomeHeader';
import { useGetPaymentRequestsQuery, useGetPaymentRequestSummaryQuery, useGetMyProgramsQuery, useLazyGetPaymentRequestsQuery, useMoveToReadyForProcessingBatchMutation, type PaymentRequestListItem } from './api';
import type { RefItem } from '../../api/wire';
import { FORM_SPECS } from './genericForms';
import { idValue, listItems } from '../../components/urlState';
import { useUrlState } from '../../components/useUrlState';
import { REQUEST_FILTERS, REQUEST_LIST_SHAPE, type RequestFilterValues } from './listQuery';
import { emptyScopeReason } from './myPrograms';
import { formTypeName, usePayeeNames } from './names';
import { ProgramFilter, RequestFilters } from './RequestFilters';
import { Nowrap, ReceiptsCell, ReceiptsHeader, StatusCell } from './cells';
import { statusLabel } from './StatusBadge';
import { requestRef } from '../../lib/labels';

/** The details list opens with this list's filters and sorting (from page 1). */

/** The selection and its toggle, read by the rows' checkboxes. */
const SelectionContext = createContext<{ selected: Selection; toggle: (row: PaymentRequestListItem, on: boolean) => void }>({
  selected: new Map(),
  toggle: () => undefined,
});

/**
 * A row's checkbox. One component for the whole life of the table, reading the selection from
 * its context: a cell made anew with each selection was a new component type, so every toggle
 * remounted the checkboxes and the focus fell to the page's body.
 */
function SelectCell({ row }: { row: { original: PaymentRequestListItem } }) {
  const { selected, toggle } = useContext(SelectionContext);
  if (!row.original.availableActions.includes('moveToReadyForProcessing')) return null;
  return (
    <Checkbox
      aria-label={`Select request ${row.original.id}`}
      checked={selected.has(row.original.id)}
      onChange={(e) => toggle(row.original, e.currentTarget.checked)}
    />
  );
}

function columns(types: RefItem[] | undefined, payees: Map<number, string>, narrow: boolean): ColumnDef<PaymentRequestListItem, unknown>[] {
  const all: ColumnDef<PaymentRequestListItem, unknown>[] = [
    {
      id: 'select',
      // Read, not shown: the boxes under it say what they select.
      header: () => <VisuallyHidden>Select</VisuallyHidden>,
      enableSorting: false,
      meta: { width: 32 },
      cell: SelectCell,
    },
    {
      id: 'id',
      header: narrow ? 'Request, status' : 'Request',
      enableSorting: false,
      meta: { width: narrow ? 148 : 92 },
      // Two facts per cell (form name under the number, description under the payee, the
      // requested amount under the approved one): ten columns side by side did not fit 1280 px.
      cell: ({ row }) => (
        <>
          <Anchor component={Link} to={`/payment-request/${row.original.formType}/${row.original.id}/details`} fw={500} size="sm" lh={1.3} display="block" w="max-content">
            <Nowrap>
              {requestRef(row.original.formType, row.original.id)}
            </Nowrap>
          </Anchor>
          {/* Whole on a phone, where the row is tall anyway; one line at 1280 px, so ten rows fit
              above the fold (the longest names end in "…", whole on hover). */}
          <Text size="xs" c="dimmed" lh={1.3} truncate={!narrow} title={formTypeName(types, row.original.formType)}>
            {formTypeName(types, row.original.formType)}
          </Text>
          {narrow && <StatusCell status={row.original.formStatus} size="xs" />}
        </>
      ),
    },
    {
      id: 'payee',
      header: 'Payee',
      enableSorting: false,
      // This column takes what the others leave; the description wraps (never cut), long
      // words break rather than widen it.
      cell: ({ row }) => (
        <Box style={{ overflowWrap: 'anywhere' }}>
          <Text size="sm" lh={1.3}>
            {payees.get(row.original.participationId) ?? `#${row.original.participationId}`}
          </Text>
          <Text size="xs" c="dimmed" lh={1.3} data-testid="description">
            {row.original.description ?? ''}
          </Text>
        </Box>
      ),
    },
    {
      id: 'receipts',
      header: () => <ReceiptsHeader />,
      enableSorting: false,
      meta: { width: 44 },
      cell: ({ row }) => <ReceiptsCell count={row.original.receiptCount} />,
    },
    { id: 'formStatus', header: 'Status', enableSorting: false, meta: { width: 140 }, cell: ({ row }) => <StatusCell status={row.original.formStatus} size="sm" /> },
    {
      id: 'approvedAmount',
      header: 'Approved',
      meta: { align: 'right', width: 112 },
      cell: ({ row }) => (
        <>
          <Text size="sm" lh={1.3}>
            <Nowrap>{row.original.approvedAmount == null ? '—' : formatMoney(row.original.approvedAmount)}</Nowrap>
          </Text>
          <Text size="xs" c="dimmed" lh={1.3}>
            <Nowrap>of {formatMoney(row.original.requestedAmount)}</Nowrap>
          </Text>
        </>
      ),
    },
    { id: 'submittedOn', header: 'Submitted', meta: { width: 104 }, cell: ({ row }) => <Nowrap>{formatDate(row.original.submittedOn)}</Nowrap> },
    { id: 'placementEndDate', header: 'Placement end', meta: { width: 142 }, cell: ({ row }) => <Nowrap>{formatDate(row.original.placementEndDate)}</Nowrap> },
  ];
  if (!narrow) return all;
  // A phone sees which request, its status and its amount first; the rest is a scroll away.
  const order = ['select', 'id', 'approvedAmount', 'payee', 'submittedOn', 'placementEndDate'];
  return order.map((id) => all.find((c) => c.id === id)!);
}

const TOTALS_HINT_ID = 'status-totals-hint';

/** Totals per status for the chosen program (GET /payment-requests/summary), in workflow order. */
function Summary({ mentorProgramId, onPick }: { mentorProgramId?: number; onPick: (status: string) => void }) {
  const summary = useGetPaymentRequestSummaryQuery(mentorProgramId);
  if (summary.error) return <ErrorDisplay error={asApiError(summary.error)} title="The totals could not be loaded" />;
  return (
    <>
      <VisuallyHidden id={TOTALS_HINT_ID}>Shows only the requests of this status.</VisuallyHidden>
      <SimpleGrid cols={{ base: 2, md: 3, lg: 6 }} spacing="sm" aria-label="Totals per status" role="list">
        {(summary.data?.statuses ?? []).map((s) => {
          const amount = formatMoney(s.approvedAmount > 0 ? s.approvedAmount : s.requestedAmount);
          return (
            <Paper key={s.formStatus} withBorder radius="md" p={0} role="listitem">
              {/* A button: the totals filter the list by their status, by mouse or keyboard. */}
              <UnstyledButton
                px={6}
                py={2}
                w="100%"
                // Named by what it shows (a speech-input user says those words); what it does is its description.
                aria-describedby={TOTALS_HINT_ID}
                title={`Requested ${formatMoney(s.requestedAmount)}${s.approvedAmount > 0 ? `, approved ${formatMoney(s.approvedAmount)}` : ''}`}
                onClick={() => onPick(s.formStatus)}
              >
                {/* Two lines (the status, then its count and amount): the work list below keeps
                    ten rows above the fold at 1280x800. Which amount it is, is in the title. */}
                <Text size="xs" c="dimmed" lh={1.3}>
                  {statusLabel(s.formStatus)}
                </Text>
                <Group gap={6} wrap="nowrap" justify="space-between" align="baseline">
                  <Text fw={700} size="sm" lh={1.3} data-testid={`count-${s.formStatus}`}>
                    {s.count}
                  </Text>
                  <Text size="xs" lh={1.3} style={{ fontVariantNumeric: 'tabular-nums' }}>
                    {amount}
                  </Text>
                </Group>
              </UnstyledButton>
            </Paper>
          );
        })}
      </SimpleGrid>
    </>
  );
}

/**
 * Home's "Waiting for you": how many requests wait for a step the caller may take (the list's
 * bounded count, so "100+" where a whole office waits), a link to them.
 */
function WaitingForYou({ mentorProgramId, active }: { mentorProgramId?: number; active: boolean }) {
  const waiting = useGetPaymentRequestsQuery({ WaitingForMe: true, MentorProgramId: mentorProgramId, Page: 1, Size: 1 });
  if (!waiting.data) return null;
  const count = waiting.data.totalCount;
  const exact = waiting.data.totalCountIsExact ?? true;
  const to = mentorProgramId ? `/?MentorProgramId=${mentorProgramId}&WaitingForMe=true` : '/?WaitingForMe=true';
  return (
    <Button component={Link} to={to} variant={active ? 'filled' : 'light'} color="blue" aria-current={active ? 'page' : undefined} data-testid="waiting-for-you">
      Waiting for you
      <Badge ml={8} variant={active ? 'white' : 'filled'} size="md" circle={count < 10} data-testid="waiting-count">
        {exact ? count.toLocaleString('en-US') : `${count.toLocaleString('en-US')}+`}
      </Badge>
    </Button>
  );
}

function NewRequestMenu({ types }: { types: RefItem[] | undefined }) {
  // The forms the server serves with their rules and the UI has a layout for.
  const creatable = (types ?? []).filter((t) => t.form && t.code && FORM_SPECS[t.code]);
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button>New request</Button>
      </Menu.Target>
      <Menu.Dropdown>
        {creatable.map((t) => (
          <Menu.Item key={t.code} component={Link} to={`/payment-request/${t.code}/create`}>
            {t.code} {t.name}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

const cents = (r: PaymentRequestListItem) => toCents(r.approvedAmount ?? r.requestedAmount);

function RequestList() {
  const url = useUrlState(REQUEST_FILTERS, REQUEST_LIST_SHAPE);
  const state = url.values;
  const list = useGetPaymentRequestsQuery(url.params);
  const types = useReferenceListQuery('/payment-requests/types');
  const payees = usePayeeNames(list.data?.items);
  const [selected, setSelected] = useState<Selection>(new Map());
  const [moveBatch, moving] = useMoveToReadyForProcessingBatchMutation();
  const canMove = useHasPermission('request:movetoreadyforprocessing');
  const canApprove = useHasPermission('request:approve');
  const mine = useGetMyProgramsQuery();
  // Approved requests matching the filters: what "select all" can take, across pages.
  const statuses = listItems(state.FormStatus);
  const approvedFilter = statuses.length === 0 || statuses.includes('Approved');
  const approvedParams = url.paramsFor({ ...state, FormStatus: 'Approved' }, { ...url.table, page: 1 });
  const matchingParams = { ...approvedParams, Size: '1' };
  const matching = useGetPaymentRequestsQuery(matchingParams, { skip: !canMove || !approvedFilter });
  const [fetchPage, fetchingAll] = useLazyGetPaymentRequestsQuery();

  const toggle = useCallback(
    (row: PaymentRequestListItem, on: boolean) => setSelected((prev) => toggled(prev, row.id, cents(row), on)),
    [],
  );
  const narrow = useBelow('sm');
  const cols = useMemo(() => {
    const all = columns(types.data, payees, narrow);
    return canMove ? all : all.filter((c) => c.id !== 'select');
  }, [types.data, payees, canMove, narrow]);
  const selection = useMemo(() => ({ selected, toggle }), [selected, toggle]);
  // The bulk bar, once shown, stays until the filters change: its buttons keep the focus after
  // a move or a cleared selection instead of leaving with the bar.
  const [barKept, setBarKept] = useState(false);
  if (selected.size > 0 && !barKept) setBarKept(true);

  // A selection belongs to the rows in view: any change of filters, page or sort drops it.
  const clearSelection = () => setSelected(new Map());
  const patch = (p: RequestFilterValues) => {
    clearSelection();
    setBarKept(false);
    url.setFilters(p);
  };

  const selectAllMatching = async () => {
    const rows = await fetchAllPages((page, size) => fetchPage({ ...approvedParams, Page: String(page), Size: String(size) }).unwrap());
    setSelected(new Map(rows.filter((r) => r.availableActions.includes('moveToReadyForProcessing')).map((r) => [r.id, cents(r)])));
  };

  const moveSelected = async () => {
    const ids = [...selected.keys()];
    const total = selectionTotal(selected);
    const sure = await openConfirm({
      title: 'Move to ready for processing',
      text: bulkQuestion('Move', ids.length, total, 'request', 'to ready for processing'),
      confirmLabel: 'Move them',
      cancelLabel: 'Keep as they are',
    });
    if (!sure) return;
    const result = await moveBatch(ids);
    if ('data' in result && result.data) {
      const n = result.data.moved.length;
      notifications.show({
        color: 'green',
        title: 'Ready for processing',
        message: `${n} request${n === 1 ? '' : 's'} totalling ${formatCents(total)} moved to ready for processing.`,
        autoClose: 5000,
      });
      setSelected(new Map());
    }
  };
  const scopeReason = emptyScopeReason(mine.data);

  return (
    <PageCard
      flush
      title="Payment requests"
      actions={
        <Group gap="sm">
          {canApprove && <WaitingForYou mentorProgramId={idValue(state.MentorProgramId)} active={state.WaitingForMe === 'true'} />}
          <Button component={Link} to={`/payment-requests/details?${url.search()}`} variant="default">
            Details list
          </Button>
          <PermissionGate permission={'request:create'} fallback={null}>
            <NewRequestMenu types={types.data} />
          </PermissionGate>
        </Group>
      }
    >
      <Stack gap="xs">
        {scopeReason && (
          <Alert color="orange" variant="light" title="Why your lists are empty" data-testid="empty-scope">
            {scopeReason}
          </Alert>
        )}
        <Summary mentorProgramId={idValue(state.MentorProgramId)} onPick={(s) => patch({ FormStatus: s })} />
        {state.FiscalYearId && <YearFilter id={idValue(state.FiscalYearId)} onClear={() => patch({ FiscalYearId: undefined })} />}
        {/* Program and payee beside status and form type: one row of filters above the list. */}
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="sm">
          <ProgramFilter state={state} onChange={patch} />
          <RequestFilters state={state} onChange={patch} compact />
        </SimpleGrid>
        {/* The bulk bar shows where it is used: approved requests in view, or a selection made. */}
        {canMove && (selected.size > 0 || barKept || statuses.includes('Approved')) && (
          <BulkActionBar
            selection={selected}
            matching={approvedFilter ? (matching.data?.totalCount ?? 0) : 0}
            onSelectAllMatching={() => void selectAllMatching()}
            selectingAll={fetchingAll.isFetching}
            onClear={() => setSelected(new Map())}
            actionLabel="Move to ready for processing"
            onAction={() => void moveSelected()}
            busy={moving.isLoading}
          />
        )}
        {list.error ? (
          <ErrorDisplay error={asApiError(list.error)} />
        ) : (
          <SelectionContext.Provider value={selection}>
            <DataTable
              label="Payment requests"
              columns={cols}
              rows={list.data?.items ?? []}
              rowKey={(row) => row.id}
              {...url.pagedTable(list, { reset: clearSelection })}
              empty={<Text fw={500}>No payment requests match.</Text>}
              dense
              fixedLayout
            />
          </SelectionContext.Provider>
        )}
      </Stack>
    </PageCard>
  );
}

/** The fiscal year the list is narrowed to (a link from closing a year leads here), and the way back to every year. */
function YearFilter({ id, onClear }: { id: number | undefined; onClear: () => void }) {
  const years = useFiscalYearsQuery();
  const year = years.data?.find((y) => y.id === id);
  return (
    <Group gap="sm" data-testid="year-filter">
      <Text size="sm">
        Only requests charged to the fiscal year <strong>{year?.name ?? (years.isLoading ? '…' : `#${id ?? ''}`)}</strong>
        {year?.closedAt ? ' (closed)' : ''}.
      </Text>
      <Button variant="subtle" size="compact-sm" onClick={onClear}>
        Show every year
      </Button>
    </Group>
  );
}

/** Home: a small welcome header, then the payment request list for those who may read requests. */
export default function PaymentRequestListPage() {
  const canRead = useHasPermission('request:read');
  return (
    <Stack gap="sm">
      {/* One line: the work list below keeps at least 10 rows above the fold at 1280x800. */}
      <WelcomeHeader />
      {canRead ? (
        <RequestList />
      ) : (
        <Paper withBorder radius="md" p="md">
          <Text>
            MentorPay takes in, reviews and approves payment requests of the mentor program. Use the menu on the left to reach the
            sections you have access to.
          </Text>
          <Badge mt="sm" variant="light">
            No access to payment requests
          </Badge>
        </Paper>
      )}
    </Stack>
  );
}

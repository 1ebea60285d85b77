import { useReferenceListQuery } from '../../lib/referenceLists';
import { EmptyRow } from '../../components/EmptyRow';
import { Anchor, Box, Button, Group, Select, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMemo, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { useHasPermission } from '../../lib/hooks';
import { askAndSave, EditorActions, SaveError, useLeaveGuard } from '../../components/EditorActions';
import { openConfirm } from '../../components/confirmDialogs';
import { formatDate } from '../../components/dates';
import { fieldErrors } from '../../components/fieldErrors';
import { MoneyInput } from '../../components/MoneyInput';
import { formatCents } from '../../components/money';
import { PageCard } from '../../components/PageCard';
import { UnseenHeader } from '../../components/TableHead';
import { ScrollWhenNarrow } from '../../components/TableScroll';
import { useBelow } from '../../components/useBelow';
import { QueryStatus } from '../../components/QueryStatus';
import { useDraft } from '../../components/useDraft';
import { useBulkUpdateBudgetMutation, useGetBudgetQuery } from './api';
import type { RefItem } from '../../api/wire';
import { BudgetChart } from './BudgetChart';
import { FOOTER_HEIGHT, HEADER_HEIGHT } from '../../lib/theme';
import { ClosedYearNotice } from './ClosedYearNotice';
import { CopyBudgetModal } from './CopyBudgetModal';
import { FiscalYearCloseModal } from './FiscalYearCloseModal';
import {
  belowApproved,
  belowApprovedText,
  byProgram,
  changedLines,
  isChanged,
  newRow,
  rowsFromLines,
  serverRowErrors,
  totals,
  validateRows,
  withAmountText,
  type GridRow,
} from './budgetGrid';
import { codedName } from '../../lib/labels';
import { clearable } from '../../lib/clearable';
import { useRowFocus } from '../../lib/rowFocus';

type RefField = 'mentorProgramId' | 'fundId' | 'expenseAccountId';

function useNames(items: RefItem[] | undefined) {
  return useMemo(() => {
    const byId = new Map((items ?? []).map((i) => [i.id, i]));
    const name = (id: number | null) => {
      if (id === null) return '';
      const item = byId.get(id);
      return item ? codedName(item) : `#${id}`;
    };
    /** The code alone (the cell), with the name beside it in smaller type. */
    const short = (id: number | null) => (id === null ? '' : (byId.get(id)?.code ?? name(id)));
    const long = (id: number | null) => (id === null ? '' : (byId.get(id)?.name ?? `#${id}`));
    // New lines may only use active entries.
    const options = (items ?? []).filter((i) => i.isActive).map((i) => ({ value: String(i.id), label: name(i.id) }));
    return { name, short, long, options };
  }, [items]);
}

/**
 * A fiscal year's budget: lines per mentor program × fund × expense account, edited
 * in place and saved together (PUT /budgets/bulk-update upserts the changed lines in
 * one transaction). Read-only without budget:edit.
 */
export default function BudgetDetailsPage() {
  const narrow = useBelow('sm');
  const fiscalYearId = Number(useParams().fiscalYearId);
  const mayEditBudget = useHasPermission('budget:edit');
  const canCloseYear = useHasPermission('setting:edit');
  const budget = useGetBudgetQuery(fiscalYearId, { skip: !Number.isInteger(fiscalYearId) });
  const year = budget.data?.fiscalYear;
  // A closed year's budget is read-only for everyone.
  const canEdit = mayEditBudget && !year?.closedAt;
  const [closing, setClosing] = useState(false);
  const [copying, setCopying] = useState(false);
  const programs = useNames(useReferenceListQuery('/mentor-programs').data);
  const funds = useNames(useReferenceListQuery('/funds').data);
  const accounts = useNames(useReferenceListQuery('/expense-accounts').data);
  const refs: Record<RefField, ReturnType<typeof useNames>> = { mentorProgramId: programs, fundId: funds, expenseAccountId: accounts };

  const source = useMemo(() => (budget.data ? rowsFromLines(budget.data.lines) : undefined), [budget.data]);
  const { draft: rows, setDraft, dirty, reset, accept } = useDraft(source);
  const { bodyRef: rowsRef, addButtonRef: addRowRef, added: rowAdded, removed: rowRemoved } = useRowFocus();
  const [bulkUpdate, { isLoading: saving, error, reset: clearError }] = useBulkUpdateBudgetMutation();
  const [checked, setChecked] = useState(false);
  const [sentKeys, setSentKeys] = useState<string[]>([]);
  // Long years are read program by program; the draft keeps every line either way.
  const [programFilter, setProgramFilter] = useState<string | null>(null);
  useLeaveGuard(canEdit && dirty);

  const local = checked && rows ? validateRows(rows) : {};
  const server = serverRowErrors(fieldErrors(error), sentKeys);
  const sum = totals(rows ?? []);
  const bars = useMemo(() => byProgram(rows ?? []), [rows]);

  const setRow = (key: string, patch: Partial<GridRow>) => setDraft((rs) => rs?.map((r) => (r.key === key ? { ...r, ...patch } : r)));

  const save = async () => {
    if (!rows) return;
    const { keys, lines } = changedLines(rows);
    setSentKeys(keys);
    const result = await bulkUpdate({ fiscalYearId, lines });
    if (result.data) {
      setChecked(false);
      accept(rowsFromLines(result.data.lines));
      notifications.show({ color: 'green', title: 'Saved', message: `${lines.length} budget line${lines.length === 1 ? '' : 's'} saved.` });
    }
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!canEdit || !dirty || !rows) return;
    setChecked(true);
    if (Object.keys(validateRows(rows)).length > 0) {
      // The first refused amount may be far down a long year: bring it into view.
      requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-testid="budget-grid"] [aria-invalid="true"]')?.focus());
      return;
    }
    const below = belowApproved(rows);
    if (below.length === 0) {
      void askAndSave(save);
      return;
    }
    const lineName = (key: string) => {
      const r = rows.find((x) => x.key === key)!;
      return `${programs.short(r.mentorProgramId)}, ${funds.short(r.fundId)}, ${accounts.short(r.expenseAccountId)}`;
    };
    void openConfirm({
      title: 'Budget below what is approved',
      text: `${below.map((b) => belowApprovedText(lineName(b.key), b)).join(' ')} Those lines will show a negative remaining amount. Save anyway?`,
      confirmLabel: 'Save Changes',
      cancelLabel: 'Keep editing',
    }).then((yes) => (yes ? save() : undefined));
  };
  const cancel = () => {
    clearError();
    setChecked(false);
    reset();
  };

  const title = budget.data ? `Budget ${budget.data.fiscalYear.name}` : 'Budget';
  return (
    <PageCard
      title={title}
      actions={
        <Group gap="sm">
          {year && canEdit && budget.data?.lines.length === 0 && (
            <Button variant="light" onClick={() => setCopying(true)}>
              Copy from last year…
            </Button>
          )}
          {year && canCloseYear && (
            <Button variant="default" onClick={() => setClosing(true)}>
              {year.closedAt ? 'Reopen year…' : 'Close year…'}
            </Button>
          )}
          <Anchor component={Link} to="/budget/list" size="sm">
            All fiscal years
          </Anchor>
        </Group>
      }
    >
      <QueryStatus isLoading={budget.isLoading} error={budget.error}>
        {budget.data && rows && (
          <form onSubmit={onSubmit} noValidate aria-label="Budget lines">
            <Stack gap="md">
              <Text size="sm" c="dimmed">
                {formatDate(budget.data.fiscalYear.startDate)} to {formatDate(budget.data.fiscalYear.endDate)}
              </Text>
              <ClosedYearNotice year={budget.data.fiscalYear} />
              <Select
                label="Mentor program"
                placeholder="All mentor programs"
                {...clearable('Mentor program')}
                w="100%"
                maw={360}
                data={programs.options}
                value={programFilter}
                onChange={setProgramFilter}
              />
              <SaveError error={error} unshown={server.other} />
              {/* Fixed columns that fit 1280 px (no sideways scrolling). The lines use the window's
                  height; amounts have room for millions; the header stays under the top bar and the save bar above the footer while
                  the page scrolls, so both are always in view. In a narrow window the columns keep
                  their room and scroll sideways in a region of their own (the header then scrolls
                  with the page). */}
              <Box data-testid="budget-scroll">
                <ScrollWhenNarrow label="Budget table" minWidth={canEdit ? 1000 : 880}>
                <Table
                  withTableBorder
                  striped
                  verticalSpacing={4}
                  data-testid="budget-grid"
                  aria-label="Budget table"
                  stickyHeader={!narrow}
                  stickyHeaderOffset={HEADER_HEIGHT}
                  layout="fixed"
                  style={{ fontVariantNumeric: 'tabular-nums' }}
                >
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th w="16%">Mentor program</Table.Th>
                      <Table.Th w="15%">Fund</Table.Th>
                      <Table.Th w="17%">Expense account</Table.Th>
                      <Table.Th ta="right" w="16%">
                        Budgeted
                      </Table.Th>
                      <Table.Th ta="right" w="15%">Approved</Table.Th>
                      <Table.Th ta="right" w="15%">Remaining</Table.Th>
                      {canEdit && <UnseenHeader w="6%">Actions</UnseenHeader>}
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody ref={rowsRef}>
                    {rows.length === 0 && (
                      <EmptyRow columns={canEdit ? 7 : 6}>No budget lines yet.{canEdit ? ' Add a line for each mentor program, fund and expense account.' : ''}</EmptyRow>
                    )}
                    {rows.map((row, index) => {
                      if (programFilter && row.id !== undefined && String(row.mentorProgramId) !== programFilter) return null;
                      const err = { ...server.rows[row.key], ...local[row.key] };
                      const isNew = row.id === undefined;
                      const remaining = (row.amount ?? 0) - row.approved;
                      const label = isNew ? `New line ${index + 1}` : `${programs.name(row.mentorProgramId)}, ${funds.name(row.fundId)}, ${accounts.name(row.expenseAccountId)}`;
                      return (
                        <Table.Tr key={row.key} data-testid="budget-line" data-changed={isChanged(row) || undefined}>
                          {(['mentorProgramId', 'fundId', 'expenseAccountId'] as const).map((field) => (
                            <Table.Td key={field}>
                              {isNew ? (
                                <Select
                                  aria-label={`${label} ${field === 'mentorProgramId' ? 'mentor program' : field === 'fundId' ? 'fund' : 'expense account'}`}
                                  placeholder="Pick…"
                                  searchable
                                  data={refs[field].options}
                                  value={row[field] === null ? null : String(row[field])}
                                  error={err[field]}
                                  onChange={(v) => setRow(row.key, { [field]: v === null ? null : Number(v) })}
                                />
                              ) : (
                                <Box title={refs[field].name(row[field])}>
                                  <Text size="sm" fw={500}>
                                    {refs[field].short(row[field])}
                                  </Text>
                                  <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                                    {refs[field].long(row[field])}
                                  </Text>
                                </Box>
                              )}
                            </Table.Td>
                          ))}
                          <Table.Td ta="right">
                            {canEdit ? (
                              <MoneyInput
                                aria-label={`${label} budgeted`}
                                value={row.amountText}
                                error={err.amount}
                                onChange={(text) => setDraft((rs) => rs?.map((r) => (r.key === row.key ? withAmountText(r, text) : r)))}
                              />
                            ) : (
                              formatCents(row.amount ?? 0)
                            )}
                          </Table.Td>
                          <Table.Td ta="right">{formatCents(row.approved)}</Table.Td>
                          <Table.Td ta="right" c={remaining < 0 ? 'red.7' : undefined}>
                            {formatCents(remaining)}
                          </Table.Td>
                          {canEdit && (
                            <Table.Td>
                              {isNew && (
                                <Button
                                  size="xs"
                                  variant="subtle"
                                  color="red"
                                  onClick={(e) => {
                                    rowRemoved(e.currentTarget);
                                    setDraft((rs) => rs?.filter((r) => r.key !== row.key));
                                  }}
                                >
                                  Remove
                                </Button>
                              )}
                            </Table.Td>
                          )}
                        </Table.Tr>
                      );
                    })}
                  </Table.Tbody>
                  <Table.Tfoot>
                    <Table.Tr data-testid="budget-totals">
                      <Table.Th colSpan={3}>Total</Table.Th>
                      <Table.Th ta="right" data-testid="total-budgeted">
                        {formatCents(sum.budgeted)}
                      </Table.Th>
                      <Table.Th ta="right" data-testid="total-approved">
                        {formatCents(sum.approved)}
                      </Table.Th>
                      <Table.Th ta="right" data-testid="total-remaining" c={sum.remaining < 0 ? 'red.7' : undefined}>
                        {formatCents(sum.remaining)}
                      </Table.Th>
                      {canEdit && <Table.Td />}
                    </Table.Tr>
                  </Table.Tfoot>
                </Table>
                </ScrollWhenNarrow>
              </Box>
              {canEdit && (
                // The save bar stays in view at the bottom of the window, however long the year.
                <Group
                  justify="space-between"
                  data-testid="budget-save-bar"
                  style={{
                    position: 'sticky',
                    bottom: FOOTER_HEIGHT,
                    zIndex: 3,
                    background: 'var(--mantine-color-body)',
                    borderTop: '1px solid var(--mantine-color-gray-3)',
                    padding: '8px 0',
                  }}
                >
                  <Button
                    ref={addRowRef}
                    variant="light"
                    onClick={() => {
                      setDraft((rs) => [...(rs ?? []), newRow()]);
                      rowAdded();
                    }}
                  >
                    Add line
                  </Button>
                  <EditorActions dirty={dirty} saving={saving} onCancel={cancel} />
                </Group>
              )}
              <Title order={2} size="h5" mt="md">
                Budgeted vs approved per mentor program
              </Title>
              <BudgetChart bars={bars} programName={(id) => programs.name(id)} />
            </Stack>
          </form>
        )}
      </QueryStatus>
      {year && <FiscalYearCloseModal year={year} opened={closing} onClose={() => setClosing(false)} />}
      {year && <CopyBudgetModal target={year} opened={copying} onClose={() => setCopying(false)} />}
    </PageCard>
  );
}

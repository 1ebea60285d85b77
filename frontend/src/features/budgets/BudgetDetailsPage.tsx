import { Anchor, Button, Group, NumberInput, Select, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMemo, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { useHasPermission } from '../../app/hooks';
import { Permission as P } from '../../app/permissions';
import { askAndSave, EditorActions, SaveError, useLeaveGuard } from '../../components/EditorActions';
import { fieldErrors } from '../../components/fieldErrors';
import { formatCents } from '../../components/money';
import { PageCard } from '../../components/PageCard';
import { QueryStatus } from '../../components/QueryStatus';
import { useDraft } from '../../components/useDraft';
import {
  useBudgetsExpenseAccountsQuery,
  useBudgetsFundsQuery,
  useBudgetsMentorProgramsQuery,
  useBulkUpdateBudgetMutation,
  useGetBudgetQuery,
  type RefItem,
} from './api';
import { BudgetChart } from './BudgetChart';
import { byProgram, changedLines, isChanged, newRow, rowsFromLines, serverRowErrors, totals, validateRows, type GridRow } from './budgetGrid';

type RefField = 'mentorProgramId' | 'fundId' | 'expenseAccountId';

function useNames(items: RefItem[] | undefined) {
  return useMemo(() => {
    const byId = new Map((items ?? []).map((i) => [i.id, i]));
    const name = (id: number | null) => {
      if (id === null) return '';
      const item = byId.get(id);
      return item ? (item.code ? `${item.code} – ${item.name}` : item.name) : `#${id}`;
    };
    // New lines may only use active entries.
    const options = (items ?? []).filter((i) => i.isActive).map((i) => ({ value: String(i.id), label: name(i.id) }));
    return { name, options };
  }, [items]);
}

/**
 * A fiscal year's budget: lines per mentor program × fund × expense account, edited
 * in place and saved together (PUT /budgets/bulk-update upserts the changed lines in
 * one transaction). Read-only without budget:edit.
 */
export default function BudgetDetailsPage() {
  const fiscalYearId = Number(useParams().fiscalYearId);
  const canEdit = useHasPermission(P.BudgetEdit);
  const budget = useGetBudgetQuery(fiscalYearId, { skip: !Number.isInteger(fiscalYearId) });
  const programs = useNames(useBudgetsMentorProgramsQuery().data);
  const funds = useNames(useBudgetsFundsQuery().data);
  const accounts = useNames(useBudgetsExpenseAccountsQuery().data);
  const refs: Record<RefField, ReturnType<typeof useNames>> = { mentorProgramId: programs, fundId: funds, expenseAccountId: accounts };

  const source = useMemo(() => (budget.data ? rowsFromLines(budget.data.lines) : undefined), [budget.data]);
  const { draft: rows, setDraft, dirty, reset, accept } = useDraft(source);
  const [bulkUpdate, { isLoading: saving, error, reset: clearError }] = useBulkUpdateBudgetMutation();
  const [checked, setChecked] = useState(false);
  const [sentKeys, setSentKeys] = useState<string[]>([]);
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
    if (Object.keys(validateRows(rows)).length > 0) return;
    void askAndSave(save);
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
        <Anchor component={Link} to="/budget/list" size="sm">
          All fiscal years
        </Anchor>
      }
    >
      <QueryStatus isLoading={budget.isLoading} error={budget.error}>
        {budget.data && rows && (
          <form onSubmit={onSubmit} noValidate aria-label="Budget lines">
            <Stack gap="md">
              <Text size="sm" c="dimmed">
                {budget.data.fiscalYear.startDate} to {budget.data.fiscalYear.endDate}
              </Text>
              <SaveError error={error} unshown={server.other} />
              <Table.ScrollContainer minWidth={1000}>
                <Table withTableBorder striped verticalSpacing={4} data-testid="budget-grid">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Mentor program</Table.Th>
                      <Table.Th>Fund</Table.Th>
                      <Table.Th>Expense account</Table.Th>
                      <Table.Th ta="right" w={180}>
                        Budgeted
                      </Table.Th>
                      <Table.Th ta="right">Approved</Table.Th>
                      <Table.Th ta="right">Remaining</Table.Th>
                      {canEdit && <Table.Th w={90} aria-label="Actions" />}
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {rows.length === 0 && (
                      <Table.Tr>
                        <Table.Td colSpan={canEdit ? 7 : 6}>
                          <Text c="dimmed" ta="center" py="md">
                            No budget lines yet.{canEdit ? ' Add a line for each mentor program, fund and expense account.' : ''}
                          </Text>
                        </Table.Td>
                      </Table.Tr>
                    )}
                    {rows.map((row, index) => {
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
                                <Text size="sm">{refs[field].name(row[field])}</Text>
                              )}
                            </Table.Td>
                          ))}
                          <Table.Td ta="right">
                            {canEdit ? (
                              <NumberInput
                                aria-label={`${label} budgeted`}
                                decimalScale={2}
                                fixedDecimalScale
                                thousandSeparator=","
                                prefix="$"
                                min={0}
                                hideControls
                                styles={{ input: { textAlign: 'right' } }}
                                value={row.amount === null ? '' : row.amount / 100}
                                error={err.amount}
                                onChange={(v) => setRow(row.key, { amount: v === '' ? null : Math.round(Number(v) * 100) })}
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
                                <Button size="xs" variant="subtle" color="red" onClick={() => setDraft((rs) => rs?.filter((r) => r.key !== row.key))}>
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
                      {canEdit && <Table.Th />}
                    </Table.Tr>
                  </Table.Tfoot>
                </Table>
              </Table.ScrollContainer>
              {canEdit && (
                <Group justify="space-between">
                  <Button variant="light" onClick={() => setDraft((rs) => [...(rs ?? []), newRow()])}>
                    Add line
                  </Button>
                  <EditorActions dirty={dirty} saving={saving} onCancel={cancel} />
                </Group>
              )}
              <Title order={3} size="h5" mt="md">
                Budgeted vs approved per mentor program
              </Title>
              <BudgetChart bars={bars} programName={(id) => programs.name(id)} />
            </Stack>
          </form>
        )}
      </QueryStatus>
    </PageCard>
  );
}

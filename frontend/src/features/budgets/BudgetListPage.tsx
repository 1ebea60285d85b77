import { Anchor, Badge, Button, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { UnseenHeader } from '../../components/TableHead';
import { EmptyRow } from '../../components/EmptyRow';
import { useDebouncedValue } from '@mantine/hooks';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useHasPermission } from '../../lib/hooks';
import { formatDate } from '../../components/dates';
import { formatMoney, toCents } from '../../components/money';
import { PageCard } from '../../components/PageCard';
import { QueryStatus } from '../../components/QueryStatus';
import { useListBudgetsQuery } from './api';
import { FiscalYearModal } from './FiscalYearModal';
import { FiscalYearCloseModal } from './FiscalYearCloseModal';
import { closedText } from './ClosedYearNotice';
import { useFiscalYearsQuery } from '../../lib/referenceLists';
import type { FiscalYear } from '../../api/wire';
import { TableScroll } from '../../components/TableScroll';

/** Fiscal years with their budget totals; the name filter is applied by the server. */
export default function BudgetListPage() {
  // Creating, closing and reopening years are settings.
  const canEditYears = useHasPermission('setting:edit');
  const [search, setSearch] = useState('');
  const [query] = useDebouncedValue(search.trim(), 300);
  const budgets = useListBudgetsQuery(query);
  const [creating, setCreating] = useState(false);
  // Who closed a year, when and why, from the fiscal year list.
  const years = new Map((useFiscalYearsQuery().data ?? []).map((y) => [y.id, y]));
  // The last year asked about stays (the dialog stays mounted, to give the focus back).
  const [closing, setClosing] = useState<{ year: FiscalYear; opened: boolean } | null>(null);

  return (
    <PageCard title="Budgets" actions={canEditYears && <Button onClick={() => setCreating(true)}>New fiscal year</Button>}>
      <TextInput label="Search" placeholder="Fiscal year name" value={search} onChange={(e) => setSearch(e.currentTarget.value)} w="100%" maw={320} />
      <QueryStatus isLoading={budgets.isLoading} error={budgets.error}>
        <TableScroll label="Fiscal years" minWidth={800}>
          <Table striped highlightOnHover withTableBorder aria-label="Fiscal years" data-testid="budgets-table" opacity={budgets.isFetching ? 0.6 : 1}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Fiscal year</Table.Th>
                <Table.Th>From</Table.Th>
                <Table.Th>To</Table.Th>
                <Table.Th ta="right">Budgeted</Table.Th>
                <Table.Th ta="right">Approved</Table.Th>
                <Table.Th ta="right">Remaining</Table.Th>
                <Table.Th>Status</Table.Th>
                {canEditYears && <UnseenHeader>Actions</UnseenHeader>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {budgets.data?.map((b) => (
                <Table.Tr key={b.fiscalYearId} data-fiscal-year={b.name}>
                  <Table.Td>
                    <Anchor component={Link} to={`/budget/${b.fiscalYearId}/details`} fw={500}>
                      {b.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{formatDate(b.startDate)}</Table.Td>
                  <Table.Td>{formatDate(b.endDate)}</Table.Td>
                  <Table.Td ta="right">{formatMoney(b.budgeted)}</Table.Td>
                  <Table.Td ta="right">{formatMoney(b.approved)}</Table.Td>
                  <Table.Td ta="right" c={toCents(b.remaining) < 0 ? 'red.7' : undefined}>
                    {formatMoney(b.remaining)}
                  </Table.Td>
                  <Table.Td>
                    <YearStatus year={years.get(b.fiscalYearId)} />
                  </Table.Td>
                  {canEditYears && (
                    <Table.Td>
                      {years.has(b.fiscalYearId) && (
                        <CloseOrReopenButton year={years.get(b.fiscalYearId)!} onClick={(year) => setClosing({ year, opened: true })} />
                      )}
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
              {budgets.data?.length === 0 && (
                <EmptyRow columns={canEditYears ? 8 : 7}>{query ? 'No fiscal year matches this name.' : 'No fiscal years yet.'}</EmptyRow>
              )}
            </Table.Tbody>
          </Table>
        </TableScroll>
      </QueryStatus>
      {creating && <FiscalYearModal onClose={() => setCreating(false)} />}
      {closing && <FiscalYearCloseModal year={closing.year} opened={closing.opened} onClose={() => setClosing({ ...closing, opened: false })} />}
    </PageCard>
  );
}

/** Open, or closed with who, when and why. */
function YearStatus({ year }: { year: FiscalYear | undefined }): ReactNode {
  if (!year) return null;
  if (!year.closedAt)
    return (
      <Badge color="green" variant="light">
        Open
      </Badge>
    );
  return (
    <>
      <Badge color="gray" variant="light">
        Closed
      </Badge>
      <Text size="xs" c="dimmed">
        {closedText(year)}
      </Text>
    </>
  );
}

function CloseOrReopenButton({ year, onClick }: { year: FiscalYear; onClick: (year: FiscalYear) => void }) {
  const verb = year.closedAt ? 'Reopen' : 'Close';
  return (
    // The visible word first in the name (what a voice user says), then which year.
    <Button size="xs" variant="subtle" onClick={() => onClick(year)}>
      {verb}…<VisuallyHidden component="span"> {year.name}</VisuallyHidden>
    </Button>
  );
}

import { Anchor, Button, Table, TextInput } from '@mantine/core';
import { EmptyRow } from '../../components/EmptyRow';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { Link } from 'react-router';
import { useHasPermission } from '../../lib/hooks';
import { formatDate } from '../../components/dates';
import { formatMoney, toCents } from '../../components/money';
import { PageCard } from '../../components/PageCard';
import { QueryStatus } from '../../components/QueryStatus';
import { useListBudgetsQuery } from './api';
import { FiscalYearModal } from './FiscalYearModal';
import { TableScroll } from '../../components/TableScroll';

/** Fiscal years with their budget totals; the name filter is applied by the server. */
export default function BudgetListPage() {
  const canCreateYear = useHasPermission('setting:edit');
  const [search, setSearch] = useState('');
  const [query] = useDebouncedValue(search.trim(), 300);
  const budgets = useListBudgetsQuery(query);
  const [creating, setCreating] = useState(false);

  return (
    <PageCard title="Budgets" actions={canCreateYear && <Button onClick={() => setCreating(true)}>New fiscal year</Button>}>
      <TextInput label="Search" placeholder="Fiscal year name" value={search} onChange={(e) => setSearch(e.currentTarget.value)} w={320} />
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
                </Table.Tr>
              ))}
              {budgets.data?.length === 0 && (
                <EmptyRow columns={6}>{query ? 'No fiscal year matches this name.' : 'No fiscal years yet.'}</EmptyRow>
              )}
            </Table.Tbody>
          </Table>
        </TableScroll>
      </QueryStatus>
      {creating && <FiscalYearModal onClose={() => setCreating(false)} />}
    </PageCard>
  );
}

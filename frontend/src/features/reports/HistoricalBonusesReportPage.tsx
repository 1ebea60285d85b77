import { Table, Text } from '@mantine/core';
import { apiUrl, minutesOffset } from '../../components/download';
import { ExportMenu } from '../../components/ExportMenu';
import { formatCents, sumCents } from '../../components/money';
import { PageCard } from '../../components/PageCard';
import { QueryStatus } from '../../components/QueryStatus';
import { useGetBonusYearsQuery, useGetReportCatalogueQuery } from './api';
import { TableScroll } from '../../components/TableScroll';

/** Fiscal years with completion bonuses (F14) and their totals; each year exports its bonus rows. */
export default function HistoricalBonusesReportPage() {
  const years = useGetBonusYearsQuery();
  const info = useGetReportCatalogueQuery().data?.find((r) => r.key === 'historical-bonuses');
  const rows = years.data ?? [];
  const num = (n: number) => n.toLocaleString('en-US');
  return (
    <PageCard title={info?.title ?? 'Historical bonuses'}>
      {info?.description && (
        <Text size="sm" c="dimmed">
          {info.description}
        </Text>
      )}
      <QueryStatus isLoading={years.isLoading} error={years.error}>
        {rows.length === 0 ? (
          <Text c="dimmed" data-testid="table-empty">
            No fiscal year has completion bonuses yet.
          </Text>
        ) : (
          <TableScroll label="Bonuses by fiscal year" minWidth={700}>
            <Table striped highlightOnHover aria-label="Bonuses by fiscal year">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Fiscal year</Table.Th>
                  <Table.Th ta="right">Bonuses</Table.Th>
                  <Table.Th ta="right">Approved</Table.Th>
                  <Table.Th ta="right">Approved amount</Table.Th>
                  <Table.Th ta="right">Export</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((y) => (
                  <Table.Tr key={y.fiscalYearId} data-fiscal-year={y.fiscalYear}>
                    <Table.Td>{y.fiscalYear}</Table.Td>
                    <Table.Td ta="right">{num(y.bonuses)}</Table.Td>
                    <Table.Td ta="right">{num(y.approved)}</Table.Td>
                    <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                      {formatCents(sumCents([y.approvedSum]))}
                    </Table.Td>
                    <Table.Td>
                      <ExportMenu
                        label={`Export ${y.fiscalYear}`}
                        fallbackName={`historical-bonuses-${y.fiscalYear.replace(/\s+/g, '-')}`}
                        url={(format) => apiUrl(`/reports/bonuses/${y.fiscalYearId}/${format}/retrieve`, { MinutesOffset: minutesOffset() })}
                      />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
              <Table.Tfoot>
                <Table.Tr>
                  <Table.Th>Total</Table.Th>
                  <Table.Th ta="right">{num(rows.reduce((n, y) => n + y.bonuses, 0))}</Table.Th>
                  <Table.Th ta="right">{num(rows.reduce((n, y) => n + y.approved, 0))}</Table.Th>
                  <Table.Th ta="right" style={{ whiteSpace: 'nowrap' }} data-total="approvedSum">
                    {formatCents(sumCents(rows.map((y) => y.approvedSum)))}
                  </Table.Th>
                  <Table.Td />
                </Table.Tr>
              </Table.Tfoot>
            </Table>
          </TableScroll>
        )}
      </QueryStatus>
    </PageCard>
  );
}

import { Badge, SegmentedControl, Stack, Table, Text, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useBelow } from '../../../components/useBelow';
import type { ImportReport } from '../api';
import { itemsOf, type Outcome } from './importReport';
import { PagedTable } from './PagedTable';

const OUTCOME: Record<Outcome, { label: string; color: string }> = {
  created: { label: 'New', color: 'green' },
  updated: { label: 'Updated', color: 'blue' },
  unchanged: { label: 'Unchanged', color: 'gray' },
};

/**
 * A report row by row: first every problem (row, column in words, the cell's value, message), since nothing can be
 * imported until they are fixed; then what each good row does, filtered by outcome.
 */
export function ImportPreview({ report }: { report: ImportReport }) {
  const [shown, setShown] = useState<Outcome | 'all'>('all');
  // Four choices side by side need about 380 px: in a narrower window they stand one above the other.
  const narrow = useBelow('sm');
  const items = useMemo(() => itemsOf(report, shown), [report, shown]);
  const counts: Record<Outcome | 'all', number> = { all: report.items.length, created: report.created, updated: report.updated, unchanged: report.unchanged };
  return (
    <Stack gap="sm">
      {report.errors.length > 0 && (
        <>
          <Title order={2} size="h4" c="red.9">
            Rows with errors
          </Title>
          <PagedTable
            label="Rows with errors"
            head={['Row', 'Column', 'Value', 'Problem']}
            rows={report.errors}
            rowKey={(e) => `${e.row}:${e.column}:${e.value}:${e.message}`}
            cells={(e) => (
              <>
                <Table.Td w={80}>{e.row}</Table.Td>
                <Table.Td w={160}>{e.column}</Table.Td>
                <Table.Td maw={220} style={{ overflowWrap: 'anywhere' }}>
                  {e.value === '' ? <Text span size="sm" c="dimmed">(blank)</Text> : e.value}
                </Table.Td>
                <Table.Td>{e.message}</Table.Td>
              </>
            )}
          />
        </>
      )}
      {report.items.length > 0 && (
        <>
          <Title order={2} size="h4">
            {report.dryRun ? 'What the import will do' : 'What the import did'}
          </Title>
          <SegmentedControl
            aria-label="Show rows"
            w={narrow ? '100%' : 'fit-content'}
            orientation={narrow ? 'vertical' : 'horizontal'}
            value={shown}
            onChange={(v) => setShown(v as Outcome | 'all')}
            data={(['all', 'created', 'updated', 'unchanged'] as const).map((o) => ({
              value: o,
              label: `${o === 'all' ? 'All' : OUTCOME[o].label} (${counts[o].toLocaleString('en-US')})`,
            }))}
          />
          <PagedTable
            // A new filter starts again at its first page.
            key={shown}
            label={report.dryRun ? 'Rows to import' : 'Imported rows'}
            head={['Row', 'Name', 'E-mail', 'Result']}
            rows={items}
            rowKey={(i) => i.row}
            cells={(i) => (
              <>
                <Table.Td w={80}>{i.row}</Table.Td>
                <Table.Td>{i.fullName}</Table.Td>
                <Table.Td>{i.email}</Table.Td>
                <Table.Td w={130}>
                  <Badge color={OUTCOME[i.outcome].color} variant="light">
                    {OUTCOME[i.outcome].label}
                  </Badge>
                </Table.Td>
              </>
            )}
          />
        </>
      )}
    </Stack>
  );
}

import { Group, Pagination, Table, Text } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { pageCount, rangeText } from '../../../components/paging';
import { TableScroll } from '../../../components/TableScroll';
import { TableHead } from '../../../components/TableHead';
import { pageOf, PAGE_SIZE } from './importReport';

interface Props<T> {
  /** The table's accessible name. */
  label: string;
  head: string[];
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  cells: (row: T) => ReactNode;
}

/**
 * A table of rows the browser already holds, one page at a time: a report of 10,000 rows
 * renders 50 of them, so the page stays responsive however long the file.
 */
export function PagedTable<T>({ label, head, rows, rowKey, cells }: Props<T>) {
  const [page, setPage] = useState(1);
  const pages = pageCount(PAGE_SIZE, rows.length);
  const current = Math.min(page, pages);
  return (
    <>
      <TableScroll label={label} minWidth={600}>
        <Table striped withTableBorder aria-label={label} verticalSpacing={4}>
          <TableHead columns={head} />
          <Table.Tbody>
            {pageOf(rows, current).map((row) => (
              <Table.Tr key={rowKey(row)}>{cells(row)}</Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableScroll>
      {rows.length > PAGE_SIZE && (
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {rangeText(current, PAGE_SIZE, rows.length)}
          </Text>
          <Pagination total={pages} value={current} onChange={setPage} size="sm" withEdges aria-label={`${label}, pages`} />
        </Group>
      )}
    </>
  );
}

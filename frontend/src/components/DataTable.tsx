import { Box, Group, LoadingOverlay, Pagination, Select, Table, Text, UnstyledButton } from '@mantine/core';
import { flexRender, getCoreRowModel, useReactTable, type ColumnDef } from '@tanstack/react-table';
import { Fragment, useLayoutEffect, useRef, type ReactNode } from 'react';
import { pageCount, rangeText } from './paging';
import { stickyOffsets } from './tableOverflow';
import { TableScroll } from './TableScroll';

/** A column may ask for a fixed width (`meta: { width: 120 }`); the others share the rest. */
const widthOf = (def: { meta?: unknown }): number | undefined => (def.meta as { width?: number } | undefined)?.width;

/** Money columns declare `meta: { align: 'right' }`: amounts line up on the cents in every table. */
const alignOf = (def: { meta?: unknown }): 'right' | undefined => ((def.meta as { align?: string } | undefined)?.align === 'right' ? 'right' : undefined);

export interface ServerSort {
  /** The server's sort key (the column's id); none: the server's default order. */
  sortBy?: string;
  sortDescending: boolean;
}

export interface ServerPaging {
  page: number;
  size: number;
  totalCount: number;
  /** False: at least `totalCount` rows match (the server stopped counting). */
  totalCountIsExact?: boolean;
  sizes: readonly number[];
}

interface Props<T> {
  /** Accessible name of the table. */
  label: string;
  columns: ColumnDef<T, unknown>[];
  rows: T[];
  rowKey: (row: T) => string | number;
  sort: ServerSort;
  /** Header click on a sortable column (`enableSorting !== false`), by column id. */
  onSort: (columnId: string) => void;
  paging: ServerPaging;
  onPage: (page: number) => void;
  onSize: (size: number) => void;
  /** First load: no rows yet. */
  loading: boolean;
  /** A later load: the old rows stay, dimmed. */
  fetching?: boolean;
  empty: ReactNode;
  /** A row's expansion, shown in a full-width row under it (nothing: collapsed). The caller
   * owns which rows are open and puts the toggle button in a cell. */
  renderExpanded?: (row: T) => ReactNode;
  /** Tighter rows, for work lists that must show many rows above the fold. */
  dense?: boolean;
  /** Columns keep the widths they ask for (`meta.width`); the others share what is left. */
  fixedLayout?: boolean;
  /** How many leading columns stay in place while the table scrolls sideways (the ones that
   * say which row it is). */
  stickyColumns?: number;
}

/** Props of a cell of column `index`: the first `sticky` columns stick at their offset. */
function stickyProps(index: number, sticky: number) {
  if (index >= sticky) return {};
  return {
    'data-sticky': '',
    'data-sticky-last': index === sticky - 1 ? '' : undefined,
    style: { left: `var(--mp-sticky-${index}, 0px)` },
  };
}

/** Measures the sticky columns' header cells and sets their offsets on the table (they depend
 * on the content, so they are read after each render that may change them). */
function useStickyOffsets(sticky: number, deps: unknown[]) {
  const table = useRef<HTMLTableElement>(null);
  useLayoutEffect(() => {
    const el = table.current;
    if (!el || sticky === 0) return;
    const set = () => {
      const heads = [...el.querySelectorAll<HTMLElement>('thead tr:first-child > th')].slice(0, sticky);
      const offsets = stickyOffsets(heads.map((h) => h.getBoundingClientRect().width));
      offsets.forEach((left, i) => el.style.setProperty(`--mp-sticky-${i}`, `${left}px`));
      const end = offsets.length ? offsets[offsets.length - 1] + heads[heads.length - 1].getBoundingClientRect().width : 0;
      el.closest<HTMLElement>('.mp-table-frame')?.style.setProperty('--mp-sticky-end', `${end}px`);
    };
    set();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(set);
    observer?.observe(el);
    return () => observer?.disconnect();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [sticky, ...deps]);
  return table;
}

function sortMark(active: boolean, descending: boolean) {
  if (!active) return '↕';
  return descending ? '▼' : '▲';
}

/**
 * A table paged and sorted ON THE SERVER: tanstack-table renders the columns,
 * the caller owns page, size and sort (usually in the address bar) and passes
 * the rows of the current page only.
 */
export function DataTable<T>({
  label,
  columns,
  rows,
  rowKey,
  sort,
  onSort,
  paging,
  onPage,
  onSize,
  loading,
  fetching = false,
  empty,
  renderExpanded,
  dense = false,
  fixedLayout = false,
  stickyColumns = 0,
}: Props<T>) {
  // The React Compiler (not used here) would skip this component: tanstack-table's instance is mutable.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: rows,
    columns,
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
    manualPagination: true,
    getRowId: (row) => String(rowKey(row)),
  });
  const exact = paging.totalCountIsExact ?? true;
  const pages = pageCount(paging.size, paging.totalCount, exact);
  // Columns may define a `footer` (page sums): one footer row, shown with the rows.
  const withFooter = rows.length > 0 && columns.some((c) => c.footer !== undefined);
  const tableRef = useStickyOffsets(stickyColumns, [rows, columns]);

  return (
    <Box pos="relative">
      <LoadingOverlay visible={loading || fetching} zIndex={5} overlayProps={{ blur: 1 }} loaderProps={{ 'aria-label': 'Loading' } as object} />
      {/* Below this the table scrolls sideways instead of crushing its columns; it must stay
          under the content width at 1280 px (892 px beside the menu), where nothing may scroll. */}
      <TableScroll label={label} minWidth={840}>
        {/* Expansion rows would break the zebra pattern. */}
        <Table ref={tableRef} striped={!renderExpanded} highlightOnHover aria-label={label} aria-busy={loading || fetching} verticalSpacing={dense ? 2 : undefined} style={fixedLayout ? { tableLayout: 'fixed', width: '100%' } : undefined}>
          <Table.Thead>
            {table.getHeaderGroups().map((group) => (
              <Table.Tr key={group.id}>
                {group.headers.map((header, index) => {
                  const sortable = header.column.columnDef.enableSorting !== false;
                  const active = sort.sortBy === header.column.id;
                  const content = flexRender(header.column.columnDef.header, header.getContext());
                  return (
                    <Table.Th
                      key={header.id}
                      ta={alignOf(header.column.columnDef)}
                      w={widthOf(header.column.columnDef)}
                      {...stickyProps(index, stickyColumns)}
                      style={{ whiteSpace: 'nowrap', ...stickyProps(index, stickyColumns).style }}
                      aria-sort={active ? (sort.sortDescending ? 'descending' : 'ascending') : sortable ? 'none' : undefined}
                    >
                      {sortable ? (
                        <UnstyledButton onClick={() => onSort(header.column.id)} fw={700} fz="sm">
                          <Group gap={4} wrap="nowrap" justify={alignOf(header.column.columnDef) === 'right' ? 'flex-end' : undefined}>
                            {content}
                            <Text span c={active ? 'brand.7' : 'dimmed'} fz="xs" aria-hidden>
                              {sortMark(active, sort.sortDescending)}
                            </Text>
                          </Group>
                        </UnstyledButton>
                      ) : (
                        content
                      )}
                    </Table.Th>
                  );
                })}
              </Table.Tr>
            ))}
          </Table.Thead>
          <Table.Tbody>
            {table.getRowModel().rows.map((row) => {
              const expansion = renderExpanded?.(row.original);
              return (
                <Fragment key={row.id}>
                  <Table.Tr>
                    {row.getVisibleCells().map((cell, index) => (
                      <Table.Td key={cell.id} ta={alignOf(cell.column.columnDef)} {...stickyProps(index, stickyColumns)}>
                        {flexRender(cell.column.columnDef.cell, cell.getContext())}
                      </Table.Td>
                    ))}
                  </Table.Tr>
                  {expansion != null && expansion !== false && (
                    <Table.Tr data-expansion>
                      <Table.Td colSpan={columns.length} bg="gray.0">
                        {expansion}
                      </Table.Td>
                    </Table.Tr>
                  )}
                </Fragment>
              );
            })}
            {!loading && rows.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={columns.length}>
                  <Box py="xl" ta="center" data-testid="table-empty">
                    {empty}
                  </Box>
                </Table.Td>
              </Table.Tr>
            )}
            {loading && rows.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={columns.length} h={160} />
              </Table.Tr>
            )}
          </Table.Tbody>
          {withFooter && (
            <Table.Tfoot>
              {table.getFooterGroups().slice(0, 1).map((group) => (
                <Table.Tr key={group.id}>
                  {group.headers.map((header, index) => (
                    <Table.Td key={header.id} fw={700} ta={alignOf(header.column.columnDef)} {...stickyProps(index, stickyColumns)}>
                      {flexRender(header.column.columnDef.footer, header.getContext())}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tfoot>
          )}
        </Table>
      </TableScroll>
      <Group justify="space-between" mt="md">
        <Group gap="xs">
          <Text size="sm" c="dimmed" data-testid="table-range">
            {rangeText(paging.page, paging.size, paging.totalCount, exact)}
          </Text>
          <Select
            aria-label="Rows per page"
            w={90}
            size="xs"
            allowDeselect={false}
            data={paging.sizes.map(String)}
            value={String(paging.size)}
            onChange={(value) => value && onSize(Number(value))}
          />
          <Text size="sm" c="dimmed">
            per page
          </Text>
        </Group>
        <Pagination
          total={pages}
          value={Math.min(paging.page, pages)}
          onChange={onPage}
          size="sm"
          withEdges
        />
      </Group>
    </Box>
  );
}

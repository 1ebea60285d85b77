// @vitest-environment jsdom
import { MantineProvider } from '@mantine/core';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { ColumnDef } from '@tanstack/react-table';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { theme } from '../lib/theme';
import { stubLayoutApis } from '../test/dom';
import { DataTable } from './DataTable';

beforeAll(stubLayoutApis);
afterEach(cleanup);

interface Row {
  id: number;
  name: string;
}
const columns: ColumnDef<Row, unknown>[] = [
  { id: 'name', header: 'Name', cell: ({ row }) => row.original.name },
  { id: 'note', header: 'Note', enableSorting: false, cell: () => '' },
];

function renderTable(props: Partial<Parameters<typeof DataTable<Row>>[0]> = {}) {
  const handlers = { onSort: vi.fn(), onPage: vi.fn(), onSize: vi.fn() };
  render(
    <MantineProvider theme={theme} env="test">
      <DataTable<Row>
        label="People"
        columns={columns}
        rows={[
          { id: 1, name: 'Ana' },
          { id: 2, name: 'Bo' },
        ]}
        rowKey={(row) => row.id}
        sort={{ sortBy: 'name', sortDescending: true }}
        paging={{ page: 2, size: 10, totalCount: 12, sizes: [10, 25] }}
        loading={false}
        empty="Nothing here"
        {...handlers}
        {...props}
      />
    </MantineProvider>,
  );
  return handlers;
}

describe('DataTable (server-side paging and sorting)', () => {
  it('shows the page it is given, the range, and the sort direction', () => {
    renderTable();
    const table = screen.getByRole('table', { name: 'People' });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(screen.getByTestId('table-range').textContent).toBe('11–12 of 12');
    expect(within(table).getByRole('columnheader', { name: /Name/ }).getAttribute('aria-sort')).toBe('descending');
    expect(within(table).getByRole('columnheader', { name: 'Note' }).getAttribute('aria-sort')).toBeNull();
  });

  it('asks the owner to sort and to page; unsortable columns have no button', () => {
    const { onSort, onPage } = renderTable();
    fireEvent.click(screen.getByRole('button', { name: /Name/ }));
    expect(onSort).toHaveBeenCalledWith('name');
    expect(screen.queryByRole('button', { name: 'Note' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Page 1' }));
    expect(onPage).toHaveBeenCalledWith(1);
  });

  it('shows the empty state only when loaded and empty', () => {
    renderTable({ rows: [], paging: { page: 1, size: 10, totalCount: 0, sizes: [10] } });
    expect(screen.getByTestId('table-empty').textContent).toBe('Nothing here');
    cleanup();
    renderTable({ rows: [], loading: true });
    expect(screen.queryByTestId('table-empty')).toBeNull();
    expect(screen.getByRole('table', { name: 'People' }).getAttribute('aria-busy')).toBe('true');
  });

  it('shows an expansion under its row and a footer row from the columns', () => {
    const withFooter: ColumnDef<Row, unknown>[] = [
      { id: 'name', header: 'Name', footer: 'Page total', cell: ({ row }) => row.original.name },
      { id: 'note', header: 'Note', enableSorting: false, cell: () => '' },
    ];
    renderTable({ columns: withFooter, renderExpanded: (row) => (row.id === 2 ? <p>More about {row.name}</p> : null) });
    const table = screen.getByRole('table', { name: 'People' });
    const rows = within(table).getAllByRole('row');
    // Header, Ana, Bo, Bo's expansion, footer.
    expect(rows).toHaveLength(5);
    expect(rows[3].textContent).toBe('More about Bo');
    expect(within(rows[3]).getByRole('cell').getAttribute('colspan')).toBe('2');
    expect(rows[4].textContent).toBe('Page total');
    expect(rows[4].closest('tfoot')).not.toBeNull();
    cleanup();
    renderTable({ columns: withFooter, rows: [], paging: { page: 1, size: 10, totalCount: 0, sizes: [10] } });
    expect(screen.queryByText('Page total')).toBeNull();
  });
});

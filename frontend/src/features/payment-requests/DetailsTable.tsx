import { Table } from '@mantine/core';
import { ScrollWhenNarrow } from '../../components/TableScroll';
import type { DetailsView } from './detailsView';

const numeric = (column: string | undefined) => (column === 'Amount' || column === 'Miles' ? 'right' : undefined);

/** A request's row list (F2 items, F3 trips, F12 days) read-only, numbers aligned right. */
export function DetailsTable({ table, label, striped = false }: { table: NonNullable<DetailsView['table']>; label: string; striped?: boolean }) {
  return (
    <ScrollWhenNarrow label={label} minWidth={480}>
    <Table aria-label={label} withTableBorder fz="sm" maw={760} striped={striped}>
      <Table.Thead>
        <Table.Tr>
          {table.columns.map((c) => (
            <Table.Th key={c} ta={numeric(c)}>
              {c}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {table.rows.map((r, i) => (
          <Table.Tr key={i}>
            {r.map((v, j) => (
              <Table.Td key={j} ta={numeric(table.columns[j])}>
                {v}
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
    </ScrollWhenNarrow>
  );
}

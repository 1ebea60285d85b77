import { Table } from '@mantine/core';

/** The header row of a plain table whose columns are headed by text alone. */
export function TableHead({ columns }: { columns: readonly string[] }) {
  return (
    <Table.Thead>
      <Table.Tr>
        {columns.map((c) => (
          <Table.Th key={c}>{c}</Table.Th>
        ))}
      </Table.Tr>
    </Table.Thead>
  );
}

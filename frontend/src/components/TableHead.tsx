import { Table, VisuallyHidden, type TableThProps } from '@mantine/core';

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

/**
 * The header of a column of buttons (Edit, Remove…): its words are read, not shown. A header
 * cell named only by `aria-label` is empty to assistive technology reading the table's cells.
 */
export function UnseenHeader({ children, w }: { children: string; w?: TableThProps['w'] }) {
  return (
    <Table.Th w={w}>
      <VisuallyHidden>{children}</VisuallyHidden>
    </Table.Th>
  );
}

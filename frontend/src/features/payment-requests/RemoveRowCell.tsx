import { ActionIcon, Table } from '@mantine/core';

/** The last cell of an editable row list: removes the row (the list keeps at least one). */
export function RemoveRowCell({ label, onlyRow, onRemove }: { label: string; onlyRow: boolean; onRemove: (e: React.MouseEvent<HTMLButtonElement>) => void }) {
  return (
    <Table.Td>
      <ActionIcon variant="subtle" color="red" aria-label={label} disabled={onlyRow} onClick={onRemove}>
        ✕
      </ActionIcon>
    </Table.Td>
  );
}

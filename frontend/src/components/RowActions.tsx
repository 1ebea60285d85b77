import { Group, Table, type GroupProps } from '@mantine/core';
import type { ReactNode } from 'react';

/** A table row's last cell: its action buttons side by side on one line. */
export function RowActions({ children, gap = 'xs', justify }: { children: ReactNode; gap?: GroupProps['gap']; justify?: GroupProps['justify'] }) {
  return (
    <Table.Td>
      <Group gap={gap} justify={justify} wrap="nowrap">
        {children}
      </Group>
    </Table.Td>
  );
}

import { Button, Group, Table, type GroupProps, type MantineColor } from '@mantine/core';
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

/**
 * One action button of a row. Every row has the same buttons, so `rowName` tells assistive
 * technology which row this one acts on ("Edit Ana Lopez").
 */
export function RowButton({
  children,
  rowName,
  variant = 'light',
  color,
  onClick,
}: {
  children: string;
  rowName?: string;
  variant?: 'light' | 'subtle';
  color?: MantineColor;
  onClick: () => void;
}) {
  return (
    <Button size="xs" variant={variant} color={color} onClick={onClick} aria-label={rowName === undefined ? undefined : `${children} ${rowName}`}>
      {children}
    </Button>
  );
}

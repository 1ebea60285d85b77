import { Table } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * The frame of a wide table: below `minWidth` the table scrolls sideways inside it, never the
 * page (WCAG 1.4.10). A named region in the Tab order, so a keyboard user can scroll it with
 * the arrow keys and a screen reader user knows what it holds.
 */
export function TableScroll({ label, minWidth, children }: { label: string; minWidth: number; children: ReactNode }) {
  return (
    <Table.ScrollContainer type="native" minWidth={minWidth} tabIndex={0} role="region" aria-label={label}>
      {children}
    </Table.ScrollContainer>
  );
}

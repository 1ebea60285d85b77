import { Box, Table, Text } from '@mantine/core';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { overflowOf, type Overflow } from './tableOverflow';
import { useBelow } from './useBelow';
import './tableScroll.css';

/**
 * The frame of a wide table: below `minWidth` the table scrolls sideways inside it, never the
 * page (WCAG 1.4.10). A named group in the Tab order, so a keyboard user can scroll it with
 * the arrow keys and a screen reader user knows what it holds. A group, not a region: the card
 * around a table usually has the table's name already, and two landmarks of one name cannot be
 * told apart. When columns are out of view
 * it says so above the table, and a shade on the side that hides them shows where they are.
 */
export function TableScroll({ label, minWidth, children }: { label: string; minWidth: number; children: ReactNode }) {
  const scroller = useRef<HTMLDivElement>(null);
  const [overflow, setOverflow] = useState<Overflow>({ left: false, right: false });
  const measure = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    const next = overflowOf(el.scrollLeft, el.clientWidth, el.scrollWidth);
    setOverflow((prev) => (prev.left === next.left && prev.right === next.right ? prev : next));
  }, []);
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    measure();
    el.addEventListener('scroll', measure, { passive: true });
    // The box keeps its size when rows arrive; the table inside it grows: both are watched.
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    observer?.observe(el);
    const table = el.querySelector('table');
    if (table) observer?.observe(table);
    return () => {
      el.removeEventListener('scroll', measure);
      observer?.disconnect();
    };
  }, [measure]);
  const hidden = overflow.left || overflow.right;
  return (
    <Box className="mp-table-frame" data-overflow-left={overflow.left || undefined} data-overflow-right={overflow.right || undefined}>
      {hidden && (
        <Text size="xs" c="dimmed" data-testid="table-scroll-hint" mb={4}>
          {overflow.right ? 'More columns to the right' : 'More columns to the left'}: scroll sideways (Shift + wheel, or focus the table and
          use the arrow keys).
        </Text>
      )}
      <Table.ScrollContainer ref={scroller} type="native" minWidth={minWidth} tabIndex={0} role="group" aria-label={label}>
        {children}
      </Table.ScrollContainer>
    </Box>
  );
}

/**
 * A table that fits a desktop window as it is (its header may stick to the window there) and
 * scrolls sideways in its own TableScroll frame below the sm breakpoint, where its columns
 * would otherwise be squeezed to a few letters each.
 */
export function ScrollWhenNarrow({ label, minWidth, children }: { label: string; minWidth: number; children: ReactNode }) {
  const narrow = useBelow('sm');
  return narrow ? (
    <TableScroll label={label} minWidth={minWidth}>
      {children}
    </TableScroll>
  ) : (
    children
  );
}

import { useEffect, useRef, useState } from 'react';

/** Where the focus goes once the rows have rendered: the last row, or the row at a position. */
type Target = { row: 'last' | number; move: number };

/**
 * Keeps a keyboard user in a list of rows that grows and shrinks by buttons. A row added takes the
 * focus in its first field, where the person goes next. A row removed hands it to the row that took
 * its place (the one above when it was the last, the add button when none is left): its own button
 * is gone, and the focus would otherwise fall back to the page. `bodyRef` goes on the rows' container
 * (a table body), `addButtonRef` on the button that adds a row.
 */
export function useRowFocus() {
  const body = useRef<HTMLTableSectionElement>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const [target, setTarget] = useState<Target | null>(null);
  useEffect(() => {
    if (!target || !body.current) return;
    const rows = Array.from(body.current.rows);
    const row = target.row === 'last' ? rows[rows.length - 1] : rows[Math.min(target.row, rows.length - 1)];
    const field = row?.querySelector<HTMLElement>('input:not([disabled]), button:not([disabled])');
    (field ?? addButton.current)?.focus();
  }, [target]);
  const to = (row: Target['row']) => setTarget((t) => ({ row, move: (t?.move ?? 0) + 1 }));
  return {
    bodyRef: body,
    addButtonRef: addButton,
    added: () => to('last'),
    /** `button`: the remove button pressed, still in its row. */
    removed: (button: HTMLElement) => {
      const row = button.closest('tr');
      to(row && body.current ? Array.from(body.current.rows).indexOf(row as HTMLTableRowElement) : 'last');
    },
  };
}

import { formatCents } from './money';

// The bulk-action pattern: select rows on a page or every matching row across
// pages, confirm with the count and the total, then one all-or-nothing call and a toast.
// Pure parts here (tested); BulkActionBar.tsx draws them.

/** Selected rows by id, with the amount (cents) each one carries for the total. */
export type Selection = ReadonlyMap<number, number>;

export function toggled(selection: Selection, id: number, cents: number, on: boolean): Selection {
  const next = new Map(selection);
  if (on) next.set(id, cents);
  else next.delete(id);
  return next;
}

export const selectionTotal = (selection: Selection) => [...selection.values()].reduce((t, c) => t + c, 0);

/** "Move 12 requests totalling $3,349.95 to ready for processing?" */
export function bulkQuestion(verb: string, count: number, totalCents: number, noun = 'request', tail = ''): string {
  return `${verb} ${count} ${noun}${count === 1 ? '' : 's'} totalling ${formatCents(totalCents)}${tail ? ` ${tail}` : ''}?`;
}

/** Every page of a paged list, at the largest page size, up to `max` rows. */
export async function fetchAllPages<T>(
  fetchPage: (page: number, size: number) => Promise<{ items: T[]; totalCount: number }>,
  { size = 500, max = 10_000 } = {},
): Promise<T[]> {
  const out: T[] = [];
  for (let page = 1; ; page += 1) {
    const { items, totalCount } = await fetchPage(page, size);
    out.push(...items);
    if (items.length < size || out.length >= Math.min(totalCount, max)) return out.slice(0, max);
  }
}

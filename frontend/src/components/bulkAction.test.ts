import { describe, expect, it } from 'vitest';
import { bulkQuestion, fetchAllPages, selectionTotal, toggled } from './bulkAction';

describe('bulk actions', () => {
  it('keeps the selection and its total in cents', () => {
    let s = toggled(new Map(), 1, 1050, true);
    s = toggled(s, 2, 299, true);
    s = toggled(s, 1, 1050, false);
    expect([...s.keys()]).toEqual([2]);
    expect(selectionTotal(toggled(s, 3, 334_701, true))).toBe(335_000);
  });

  it('asks with the count and the total', () => {
    expect(bulkQuestion('Move', 12, 334_995, 'request', 'to ready for processing')).toBe('Move 12 requests totalling $3,349.95 to ready for processing?');
    expect(bulkQuestion('Move', 1, 100)).toBe('Move 1 request totalling $1.00?');
  });

  it('reads every page of the matching rows', async () => {
    const rows = Array.from({ length: 1203 }, (_, i) => i);
    const asked: number[] = [];
    const all = await fetchAllPages(async (page, size) => {
      asked.push(page);
      return { items: rows.slice((page - 1) * size, page * size), totalCount: rows.length };
    });
    expect(all).toEqual(rows);
    expect(asked).toEqual([1, 2, 3]);
  });
});

// Paging arithmetic shared by server-paged tables. Pure: tested in paging.test.ts.

/**
 * "21–25 of 25"; the last page may be short. A list that stopped counting (`exact` false:
 * the server's `totalCountIsExact`) says "1–25 of 1,000+".
 */
export function rangeText(page: number, size: number, total: number, exact = true): string {
  if (total === 0) return '0 of 0';
  const first = (page - 1) * size + 1;
  const last = Math.min(page * size, total);
  const of = exact ? `${total}` : `${total.toLocaleString('en-US')}+`;
  return `${first}–${last} of ${of}`;
}

/**
 * At least one page, so an empty list still shows "page 1 of 1". Past an inexact count
 * one more page can always be asked for (the server counts up to the page it serves).
 */
export function pageCount(size: number, total: number, exact = true): number {
  return Math.max(1, Math.ceil(total / size) + (exact ? 0 : 1));
}

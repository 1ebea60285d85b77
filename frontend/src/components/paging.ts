// Paging arithmetic shared by server-paged tables. Pure: tested in paging.test.ts.

/** "21–25 of 25"; the last page may be short. */
export function rangeText(page: number, size: number, total: number): string {
  if (total === 0) return '0 of 0';
  const first = (page - 1) * size + 1;
  const last = Math.min(page * size, total);
  return `${first}–${last} of ${total}`;
}

/** At least one page, so an empty list still shows "page 1 of 1". */
export function pageCount(size: number, total: number): number {
  return Math.max(1, Math.ceil(total / size));
}

import type { ApiError } from '../../../api/errors';
import type { ImportItem, ImportReport } from '../api';

// What the import screen makes of the server's answers: pure, tested in importReport.test.ts.

export type Outcome = ImportItem['outcome'];

/** The largest file the server takes; a bigger one is refused before it is sent. */
export const MAX_BYTES = 10 * 1024 * 1024;
/** Rows per page of the preview tables: a 10,000-row file shows 50 rows at a time. */
export const PAGE_SIZE = 50;

/** The report a refused real run carries (a 422 listing the rows in error), if it is one. */
export function refusedReport(error: unknown): ImportReport | undefined {
  const body = (error as ApiError | undefined)?.body as Partial<ImportReport> | undefined;
  if (typeof body !== 'object' || body === null) return undefined;
  return Array.isArray(body.errors) && Array.isArray(body.items) && typeof body.rows === 'number' ? (body as ImportReport) : undefined;
}

/** How many distinct rows have at least one error. */
export function rowsInError(report: ImportReport): number {
  return new Set(report.errors.map((e) => e.row)).size;
}

/** The items of one outcome, or all of them. */
export function itemsOf(report: ImportReport, outcome: Outcome | 'all'): ImportItem[] {
  return outcome === 'all' ? report.items : report.items.filter((i) => i.outcome === outcome);
}

/** Page `page` (from 1) of `list`, `size` rows at a time. */
export function pageOf<T>(list: readonly T[], page: number, size = PAGE_SIZE): T[] {
  return list.slice((page - 1) * size, page * size);
}

const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** One sentence on a report: what a dry run would do, or what the real run did. */
export function summaryText(report: ImportReport): string {
  const changes = report.dryRun
    ? `${report.created.toLocaleString('en-US')} to create, ${report.updated.toLocaleString('en-US')} to update, ${report.unchanged.toLocaleString('en-US')} unchanged`
    : `${report.created.toLocaleString('en-US')} created, ${report.updated.toLocaleString('en-US')} updated, ${report.unchanged.toLocaleString('en-US')} unchanged`;
  const bad = rowsInError(report);
  const errors = bad > 0 ? `; ${count(bad, 'row')} with errors (${count(report.errors.length, 'problem')})` : '';
  return `${count(report.rows, 'row')}: ${changes}${errors}.`;
}

/**
 * Why a file is refused before it is sent, or nothing. Only what needs no reading: whether it
 * is CSV or XLSX, and its columns and rows, the server judges and explains.
 */
export function fileProblem(file: { size: number }): string | undefined {
  if (file.size === 0) return 'The file is empty.';
  if (file.size > MAX_BYTES) return `The file is larger than ${MAX_BYTES / (1024 * 1024)} MB, the most an import takes.`;
  return undefined;
}

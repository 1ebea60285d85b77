import { describe, expect, it } from 'vitest';
import type { ImportReport } from '../api';
import { fileProblem, itemsOf, MAX_BYTES, pageOf, refusedReport, rowsInError, summaryText } from './importReport';

const report = (patch: Partial<ImportReport> = {}): ImportReport => ({
  rows: 4,
  created: 2,
  updated: 1,
  unchanged: 0,
  dryRun: true,
  errors: [
    { row: 3, column: 'E-mail', value: 'ana@', message: 'is not a valid e-mail address' },
    { row: 3, column: 'Status', value: 'Retired', message: 'must be Active or Inactive' },
  ],
  items: [
    { row: 2, email: 'a@example.org', fullName: 'A A', outcome: 'created' },
    { row: 4, email: 'b@example.org', fullName: 'B B', outcome: 'updated' },
    { row: 5, email: 'c@example.org', fullName: 'C C', outcome: 'created' },
  ],
  ...patch,
});

describe('participant import report', () => {
  it('says what a dry run would do and what a real run did, counting rows in error once', () => {
    expect(rowsInError(report())).toBe(1);
    expect(summaryText(report())).toBe('4 rows: 2 to create, 1 to update, 0 unchanged; 1 row with errors (2 problems).');
    expect(summaryText(report({ dryRun: false, errors: [], rows: 1, created: 1, updated: 0 }))).toBe('1 row: 1 created, 0 updated, 0 unchanged.');
    expect(summaryText(report({ errors: [], rows: 10000, created: 10000, updated: 0 }))).toBe('10,000 rows: 10,000 to create, 0 to update, 0 unchanged.');
  });

  it('reads the report a refused real run carries, and nothing else', () => {
    const refused = { status: 422, title: 'Unprocessable Entity', detail: '1 rows have errors', body: { ...report({ dryRun: false }), status: 422 } };
    expect(refusedReport(refused)?.errors).toHaveLength(2);
    const unreadable = { status: 422, title: 'Unprocessable Entity', detail: 'file: unknown columns: x', body: { errors: { file: ['unknown columns: x'] } } };
    expect(refusedReport(unreadable)).toBeUndefined();
    expect(refusedReport(undefined)).toBeUndefined();
  });

  it('filters by outcome and pages long lists', () => {
    expect(itemsOf(report(), 'created').map((i) => i.row)).toEqual([2, 5]);
    expect(itemsOf(report(), 'all')).toHaveLength(3);
    const many = Array.from({ length: 10000 }, (_, i) => i);
    expect(pageOf(many, 1)).toHaveLength(50);
    expect(pageOf(many, 200)).toEqual(Array.from({ length: 50 }, (_, i) => 9950 + i));
    expect(pageOf(many, 201)).toEqual([]);
  });

  it('refuses an empty or too large file before sending it', () => {
    expect(fileProblem({ size: 10 })).toBeUndefined();
    expect(fileProblem({ size: MAX_BYTES })).toBeUndefined();
    expect(fileProblem({ size: 0 })).toBe('The file is empty.');
    expect(fileProblem({ size: MAX_BYTES + 1 })).toMatch(/larger than 10 MB/);
  });
});

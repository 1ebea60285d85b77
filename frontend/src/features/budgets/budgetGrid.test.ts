import { describe, expect, it } from 'vitest';
import { belowApproved, belowApprovedText, byProgram, changedLines, newRow, rowsFromLines, serverRowErrors, totals, validateRows, withAmountText, type GridRow } from './budgetGrid';

const lines = [
  { id: 1, mentorProgramId: 10, fundId: 1, expenseAccountId: 5, budgeted: 1000.1, approved: 200.2, remaining: 799.9, version: 1 },
  { id: 2, mentorProgramId: 11, fundId: 1, expenseAccountId: 5, budgeted: 0.2, approved: 0.1, remaining: 0.1, version: 1 },
  { id: 3, mentorProgramId: 10, fundId: 2, expenseAccountId: 5, budgeted: 50, approved: 0, remaining: 50, version: 1 },
];

describe('budget grid', () => {
  it('keeps amounts in cents and totals them exactly', () => {
    const rows = rowsFromLines(lines);
    expect(rows[0]!.amount).toBe(100010);
    expect(totals(rows)).toEqual({ budgeted: 105030, approved: 20030, remaining: 85000 });
  });

  it('sends only new and changed lines', () => {
    const rows = rowsFromLines(lines);
    expect(changedLines(rows).lines).toEqual([]);
    rows[1] = withAmountText(rows[1]!, '12.34');
    const added: GridRow = withAmountText({ ...newRow(), mentorProgramId: 12, fundId: 1, expenseAccountId: 6 }, '.99');
    const { keys, lines: body } = changedLines([...rows, added]);
    expect(keys).toEqual([rows[1]!.key, added.key]);
    expect(body).toEqual([
      { mentorProgramId: 11, fundId: 1, expenseAccountId: 5, amount: 12.34 },
      { mentorProgramId: 12, fundId: 1, expenseAccountId: 6, amount: 0.99 },
    ]);
  });

  it('checks new lines before saving', () => {
    const rows = rowsFromLines(lines);
    const empty = newRow();
    const duplicate: GridRow = withAmountText({ ...newRow(), mentorProgramId: 10, fundId: 1, expenseAccountId: 5 }, '1');
    const negative: GridRow = withAmountText({ ...newRow(), mentorProgramId: 13, fundId: 1, expenseAccountId: 5 }, '-5');
    const tooFine = withAmountText(rows[2]!, '0.725');
    const problems = validateRows([...rows.slice(0, 2), tooFine, empty, duplicate, negative]);
    expect(Object.keys(problems)).toEqual([tooFine.key, empty.key, duplicate.key, negative.key]);
    expect(problems[tooFine.key]!.amount).toMatch(/two decimals/);
    expect(tooFine.amount).toBeNull();
    expect(problems[empty.key]).toMatchObject({ mentorProgramId: expect.any(String), amount: 'Enter an amount' });
    expect(problems[duplicate.key]!.expenseAccountId).toMatch(/already have a line/);
    expect(problems[negative.key]!.amount).toBe('Must not be negative');
  });

  it('sums budgeted and approved per program, biggest first', () => {
    expect(byProgram(rowsFromLines(lines))).toEqual([
      { mentorProgramId: 10, budgeted: 105010, approved: 20020 },
      { mentorProgramId: 11, budgeted: 20, approved: 10 },
    ]);
  });

  it('maps server field errors to the rows sent', () => {
    const { rows, other } = serverRowErrors({ 'lines[1].amount': 'bad', '[0].fundId': 'unknown', 'lines.1.fundId': 'x', fiscalYearId: 'gone' }, ['a', 'b']);
    expect(rows).toEqual({ b: { amount: 'bad', fundId: 'x' }, a: { fundId: 'unknown' } });
    expect(other).toEqual(['fiscalYearId: gone']);
  });

  it('names lines saved below what is approved, by how much', () => {
    const rows = rowsFromLines(lines);
    expect(belowApproved(rows)).toEqual([]);
    const lowered = withAmountText(rows[0]!, '150');
    const [b] = belowApproved([lowered, rows[1]!]);
    expect(b).toEqual({ key: lowered.key, amount: 15000, approved: 20020, short: 5020 });
    expect(belowApprovedText('CECMP, GF, 5210', b!)).toBe('CECMP, GF, 5210: $150.00 is $50.20 below the $200.20 already approved.');
  });
});

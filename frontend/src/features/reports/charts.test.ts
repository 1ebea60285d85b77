import { describe, expect, it } from 'vitest';
import { approvedByFormType, budgetByProgram } from './charts';

describe('report charts', () => {
  it('keeps each form, by its name, with its approved amount in cents', () => {
    const report = { columns: [{ key: 'formType', header: 'Form', kind: 'text' as const, sortable: true, labels: { F1: 'F1 Placement stipend', F2: 'F2 Expense reimbursement' } }] };
    expect(approvedByFormType([{ formType: 'F1', approvedSum: 0.1 }, { formType: 'F2', approvedSum: null }], report)).toEqual([
      { label: 'F1 Placement stipend', cents: { approvedSum: 10 } },
      { label: 'F2 Expense reimbursement', cents: { approvedSum: 0 } },
    ]);
  });
  it('sums the lines of each program exactly, biggest budget first', () => {
    const rows = [
      { mentorProgram: 'North', budgeted: 100.1, actual: 0.2 },
      { mentorProgram: 'South', budgeted: 500, actual: 499.99 },
      { mentorProgram: 'North', budgeted: 0.2, actual: 0.1 },
    ];
    expect(budgetByProgram(rows)).toEqual([
      { label: 'South', cents: { budgeted: 50000, actual: 49999 } },
      { label: 'North', cents: { budgeted: 10030, actual: 30 } },
    ]);
  });
  it('never adds budgets of different fiscal years: one bar per program and year', () => {
    const rows = [
      { fiscalYear: 'FY 2025-26', mentorProgram: 'North', budgeted: 100, actual: 10 },
      { fiscalYear: 'FY 2026-27', mentorProgram: 'North', budgeted: 200, actual: 20 },
      { fiscalYear: 'FY 2026-27', mentorProgram: 'North', budgeted: 1, actual: 0 },
    ];
    expect(budgetByProgram(rows)).toEqual([
      { label: 'North (FY 2026-27)', cents: { budgeted: 20100, actual: 2000 } },
      { label: 'North (FY 2025-26)', cents: { budgeted: 10000, actual: 1000 } },
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { confirmText, defaultYear, rangeProblem, yearLabel } from './VendorPaymentRules';

const years = [
  { id: 1, name: 'FY 2025-26', startDate: '2025-07-01', endDate: '2026-06-30' },
  { id: 2, name: 'FY 2026-27', startDate: '2026-07-01', endDate: '2027-06-30' },
];

describe('vendor payment rules', () => {
  it('defaults to the fiscal year holding today, else the latest', () => {
    expect(defaultYear(years, '2026-01-15')?.id).toBe(1);
    expect(defaultYear(years, '2026-07-01')?.id).toBe(2);
    expect(defaultYear(years, '2030-01-01')?.id).toBe(2);
    expect(defaultYear([], '2026-01-01')).toBeUndefined();
  });

  it('opens on the earliest year with requests ready for processing', () => {
    const waiting = [
      { fiscalYearId: 1, count: 64 },
      { fiscalYearId: 2, count: 33 },
    ];
    expect(defaultYear(years, '2026-11-27', waiting)?.id).toBe(1);
    expect(defaultYear(years, '2026-11-27', [{ fiscalYearId: 2, count: 5 }])?.id).toBe(2);
    expect(defaultYear(years, '2026-01-15', [{ fiscalYearId: 1, count: 0 }])?.id).toBe(1);
    expect(defaultYear(years, '2026-11-27', [{ fiscalYearId: 9, count: 5 }])?.id).toBe(2);
  });

  it('names each year with what waits in it', () => {
    expect(yearLabel('FY 2025-26', 64)).toBe('FY 2025-26 (64 ready)');
    expect(yearLabel('FY 2026-27', 0)).toBe('FY 2026-27 (nothing ready)');
  });

  it('asks with the count and the total in dollars', () => {
    expect(confirmText(3, 1234.5)).toBe('Generate a vendor payment report for 3 requests totalling $1,234.50? They will be marked Processed.');
    expect(confirmText(1, 20)).toBe('Generate a vendor payment report for 1 request totalling $20.00? They will be marked Processed.');
  });

  it('names a range the server would refuse', () => {
    expect(rangeProblem('2026-01-01', '2026-01-31')).toBeUndefined();
    expect(rangeProblem('2026-01-01', '2026-01-01')).toBeUndefined();
    expect(rangeProblem('2026-02-01', '2026-01-31')).toMatch(/end date/);
    expect(rangeProblem(null, '2026-01-31')).toMatch(/both/);
  });
});

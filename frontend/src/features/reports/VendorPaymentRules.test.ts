import { describe, expect, it } from 'vitest';
import { confirmText, defaultYear, localDay, outsideText, rangeHolding, rangeProblem, yearLabel } from './VendorPaymentRules';

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

  it('opens on the year holding the most requests ready for processing, the earliest of equals', () => {
    const waiting = [
      { fiscalYearId: 1, count: 1 },
      { fiscalYearId: 2, count: 24 },
    ];
    expect(defaultYear(years, '2026-11-27', waiting)?.id).toBe(2);
    expect(defaultYear(years, '2026-11-27', [{ fiscalYearId: 1, count: 64 }, { fiscalYearId: 2, count: 33 }])?.id).toBe(1);
    expect(defaultYear(years, '2026-11-27', [{ fiscalYearId: 1, count: 5 }, { fiscalYearId: 2, count: 5 }])?.id).toBe(1);
    expect(defaultYear(years, '2026-01-15', [{ fiscalYearId: 1, count: 0 }])?.id).toBe(1);
    expect(defaultYear(years, '2026-11-27', [{ fiscalYearId: 9, count: 5 }])?.id).toBe(2);
  });

  it("opens on days holding the year's ready requests, approved after its end too", () => {
    const year = years[0];
    expect(rangeHolding(year)).toEqual({ start: '2025-07-01', end: '2026-06-30' });
    const late = { fiscalYearId: 1, count: 25, firstApprovedAt: '2025-09-02T12:00:00Z', lastApprovedAt: '2026-08-14T12:00:00Z' };
    expect(rangeHolding(year, late)).toEqual({ start: '2025-07-01', end: localDay(late.lastApprovedAt) });
    const early = { fiscalYearId: 1, count: 1, firstApprovedAt: '2025-06-20T12:00:00Z', lastApprovedAt: '2025-06-20T12:00:00Z' };
    expect(rangeHolding(year, early)).toEqual({ start: localDay(early.firstApprovedAt), end: '2026-06-30' });
  });

  it('says what the range leaves out', () => {
    expect(outsideText(6, 1234.5, 'FY 2025-26')).toBe(
      '6 requests of FY 2025-26 ready for processing, totalling $1,234.50, were approved outside these dates and are not in this preview.',
    );
    expect(outsideText(1, 20, 'FY 2025-26')).toBe(
      '1 request of FY 2025-26 ready for processing, totalling $20.00, was approved outside these dates and is not in this preview.',
    );
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

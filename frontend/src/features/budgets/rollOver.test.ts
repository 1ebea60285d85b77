import { describe, expect, it } from 'vitest';
import { changedCents, parsePercent, previousYear, rollOverTotals } from './rollOver';

describe('roll-over preview', () => {
  it('reads percentages as typed', () => {
    expect(parsePercent('')).toEqual({ hundredths: 0 });
    expect(parsePercent('3.5')).toEqual({ hundredths: 350 });
    expect(parsePercent(' -10 % ')).toEqual({ hundredths: -1000 });
    expect(parsePercent('1.234').error).toBeDefined();
    expect(parsePercent('-100.01').error).toBeDefined();
    expect(parsePercent('abc').error).toBeDefined();
  });

  it('rounds each line half away from zero, like the server', () => {
    expect(changedCents(50, 500)).toBe(53); // $0.525 -> $0.53
    expect(changedCents(10, 250)).toBe(10); // $0.1025 -> $0.10
    expect(changedCents(1, -5000)).toBe(1); // $0.005 -> $0.01
    expect(changedCents(100000, 0)).toBe(100000);
    expect(rollOverTotals([50, 50, 100000], 500)).toEqual({ lines: 3, before: 100100, after: 105106 });
  });

  it('proposes the year just before', () => {
    const years = [
      { id: 1, startDate: '2024-07-01' },
      { id: 2, startDate: '2025-07-01' },
      { id: 3, startDate: '2026-07-01' },
    ];
    expect(previousYear(years, '2026-07-01')?.id).toBe(2);
    expect(previousYear(years, '2024-07-01')).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { formatCents, formatMoney, fromCents, sumCents, toCents } from './money';

describe('money', () => {
  it('converts to exact cents', () => {
    expect(toCents(0.1)).toBe(10);
    expect(toCents(0.29)).toBe(29); // 0.29 * 100 is 28.999…: rounded, never truncated
    expect(toCents('12.34')).toBe(1234);
    expect(toCents('')).toBe(0);
    expect(toCents(null)).toBe(0);
    expect(toCents('abc')).toBe(0);
    expect(fromCents(1234)).toBe(12.34);
  });

  it('sums without floating point drift', () => {
    expect(sumCents([0.1, 0.2])).toBe(30);
    expect(sumCents(Array(10).fill(0.1))).toBe(100);
    expect(sumCents([])).toBe(0);
  });

  it('formats as dollars', () => {
    expect(formatCents(123450)).toBe('$1,234.50');
    expect(formatCents(-500)).toBe('-$5.00');
    expect(formatMoney(0.67)).toBe('$0.67');
  });
});

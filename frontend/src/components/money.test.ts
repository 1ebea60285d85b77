import { describe, expect, it } from 'vitest';
import { centsToInput, formatCents, formatMoney, fromCents, parseMoneyInput, sumCents, toCents } from './money';

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

  it('reads typed amounts exactly or refuses them with a reason', () => {
    expect(parseMoneyInput('1234.5')).toEqual({ cents: 123450 });
    expect(parseMoneyInput(' $1,234.56 ')).toEqual({ cents: 123456 });
    expect(parseMoneyInput('0.70')).toEqual({ cents: 70 });
    expect(parseMoneyInput('.5')).toEqual({ cents: 50 });
    expect(parseMoneyInput('12.')).toEqual({ cents: 1200 });
    expect(parseMoneyInput('0.725').error).toMatch(/two decimals/);
    expect(parseMoneyInput('-5').error).toMatch(/negative/);
    expect(parseMoneyInput('-5', { allowNegative: true })).toEqual({ cents: -500 });
    expect(parseMoneyInput('').error).toMatch(/Enter an amount/);
    expect(parseMoneyInput('12,34').error).toMatch(/like/);
    expect(parseMoneyInput('1e3').error).toMatch(/like/);
    expect(parseMoneyInput('abc').error).toMatch(/like/);
    expect(centsToInput(123450)).toBe('1234.50');
    expect(centsToInput(null)).toBe('');
  });
});

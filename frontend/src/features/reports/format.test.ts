import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime } from '../../components/dates';
import { formatValue } from './format';

describe('report values', () => {
  it('prints days and moments the one way every screen does', () => {
    expect(formatValue('date', '2025-11-03')).toBe('Nov 3, 2025');
    expect(formatValue('date', '2025-11-03')).toBe(formatDate('2025-11-03'));
    const at = new Date(2026, 4, 24, 14, 5).toISOString();
    expect(formatValue('timestamp', at)).toBe('May 24, 2026, 2:05 PM');
    expect(formatValue('timestamp', at)).toBe(formatDateTime(at));
  });
  it('prints money, counts and empties', () => {
    expect(formatValue('money', 3349.95)).toBe('$3,349.95');
    expect(formatValue('int', 12345)).toBe('12,345');
    expect(formatValue('percent', 45.46)).toBe('45.5%');
    expect(formatValue('date', null)).toBe('');
  });
});

import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime } from './dates';

describe('dates', () => {
  it('shows calendar days one way, without shifting them by the time zone', () => {
    expect(formatDate('2025-11-03')).toBe('Nov 3, 2025');
    expect(formatDate('2026-06-30')).toBe('Jun 30, 2026');
    expect(formatDate(null)).toBe('');
    expect(formatDate('not a date')).toBe('not a date');
  });

  it('shows timestamps with the local time', () => {
    const local = new Date(2026, 4, 24, 14, 5);
    expect(formatDateTime(local.toISOString())).toBe('May 24, 2026, 2:05 PM');
    expect(formatDate(local.toISOString())).toBe('May 24, 2026');
  });
});

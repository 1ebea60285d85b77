import { describe, expect, it } from 'vitest';
import { computedCents, emptyGeneric, genericDetails, genericValuesOf } from './genericForms';

describe('generic request forms', () => {
  it('round-trips F10 details and computes hours × rate like the server', () => {
    const details = { jobCategoryId: 1, date: '2025-10-01', hours: 7.5, hourlyRate: 22.4 };
    const values = genericValuesOf('F10', details);
    expect(values.jobCategoryId).toBe('1');
    expect(genericDetails('F10', values)).toEqual(details);
    expect(computedCents('F10', values)).toBe(16800);
  });

  it('sends empty inputs as null and keeps F2 receipts', () => {
    const empty = emptyGeneric('F2');
    expect(genericDetails('F2', empty)).toEqual({ items: [{ date: null, description: null, amount: null }], fileIds: [] });
    const stored = genericValuesOf('F2', { items: [{ date: '2025-10-01', description: 'Books', amount: 12.34 }, { date: '2025-10-03', description: 'Paper', amount: 0.66 }], fileIds: ['a'] });
    expect(genericDetails('F2', stored).fileIds).toEqual(['a']);
    expect(computedCents('F2', stored)).toBe(1300);
  });

  it('computes F11 nights and F12 meals (only with the rates)', () => {
    expect(computedCents('F11', { checkIn: '2025-10-01', checkOut: '2025-10-03', nightlyRate: 129.99 })).toBe(25998);
    const days = { days: [{ date: '2025-10-01', breakfast: true, lunch: true, dinner: false }, { date: '2025-10-02', breakfast: false, lunch: false, dinner: true }] };
    expect(computedCents('F12', days, { breakfast: 16, lunch: 19, dinner: 28 })).toBe(6300);
    expect(computedCents('F12', days)).toBeNull();
    expect(computedCents('F5', {})).toBeNull();
  });
});

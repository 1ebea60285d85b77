import { describe, expect, it } from 'vitest';
import { bannerState, fromLocalInput, toLocalInput } from './bannerRules';

describe('banner rules', () => {
  it('round-trips datetime-local values through UTC', () => {
    const iso = fromLocalInput('2030-01-02T09:30');
    expect(iso).toMatch(/Z$/);
    expect(toLocalInput(iso)).toBe('2030-01-02T09:30');
    expect(fromLocalInput('')).toBeNull();
    expect(toLocalInput(null)).toBe('');
    expect(toLocalInput('garbage')).toBe('');
  });

  it('tells whether a banner shows now', () => {
    const now = new Date('2030-01-02T12:00:00Z');
    const b = (isActive: boolean, startsAt: string | null, endsAt: string | null) => bannerState({ isActive, startsAt, endsAt }, now);
    expect(b(true, null, null)).toBe('Showing');
    expect(b(false, null, null)).toBe('Off');
    expect(b(true, '2030-01-02T13:00:00Z', null)).toBe('Scheduled');
    expect(b(true, '2030-01-02T12:00:00Z', '2030-01-02T12:00:01Z')).toBe('Showing');
    expect(b(true, null, '2030-01-02T12:00:00Z')).toBe('Ended'); // end is exclusive
  });
});

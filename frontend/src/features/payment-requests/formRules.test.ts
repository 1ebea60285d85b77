import { describe, expect, it } from 'vitest';
import { FORM_TYPES, servedRules } from '../../test/formTypes';
import { computedCents, isEntered, listsOf, ratePerUnit, rateSetting, rulesOf } from './formRules';

const rates = { mileageRate: 0.7, mealRates: { breakfast: 10, lunch: 15, dinner: 25 } };
/** `null`: the rates are not there. */
const amount = (code: string, details: Record<string, unknown>, r: typeof rates | null = rates) => computedCents(servedRules(code).amount, details, r ?? undefined);

describe('form rules', () => {
  it('say which forms take a typed amount and which lists each picks from', () => {
    expect(FORM_TYPES.filter((t) => isEntered(t.form ?? undefined)).map((t) => t.code)).toEqual(['F1', 'F4', 'F5', 'F6', 'F7', 'F8', 'F13', 'F14']);
    expect([...listsOf(servedRules('F3'))]).toEqual(['travel_purposes', 'transit_types']);
    expect([...listsOf(servedRules('F13'))]).toEqual(['colleges', 'institutions']);
    expect([...listsOf(servedRules('F14'))]).toEqual(['fiscal_years']);
    expect(listsOf(servedRules('F5')).size).toBe(0);
    expect(servedRules('F4').references.find((r) => r.field === 'institutionId')?.optional).toBe(true);
    expect(rulesOf(FORM_TYPES, 'F99')).toBeUndefined();
    expect(rulesOf(undefined, 'F1')).toBeUndefined();
  });

  it('name the rate from settings a form is computed with', () => {
    expect(rateSetting(servedRules('F3').amount)).toBe('mileageRate');
    expect(rateSetting(servedRules('F12').amount)).toBe('mealRates');
    expect(rateSetting(servedRules('F10').amount)).toBeNull();
    expect(ratePerUnit(servedRules('F3').amount, rates)).toEqual({ cents: 70, unit: 'mile' });
    expect(ratePerUnit(servedRules('F3').amount, undefined)).toBeNull();
    expect(ratePerUnit(servedRules('F10').amount, rates)).toBeNull();
  });

  it('compute what the server computes for the same details (its own examples)', () => {
    expect(amount('F2', { items: [{ amount: 12.34 }, { amount: 0.66 }] })).toBe(1300);
    expect(amount('F3', { trips: [{ miles: 12.5 }, { miles: 10 }] })).toBe(1575);
    expect(amount('F9', { amount: 420.5 })).toBe(42050);
    expect(amount('F10', { hours: 7.5, hourlyRate: 22.4 })).toBe(16800);
    expect(amount('F11', { checkIn: '2025-10-01', checkOut: '2025-10-03', nightlyRate: 129.99 })).toBe(25998);
    expect(amount('F12', { days: [{ breakfast: true, lunch: true, dinner: false }, { dinner: true }] })).toBe(5000);
    expect(amount('F1', { hours: 3 })).toBeNull();
  });

  it('round a product once, half a cent away from zero, as the server does', () => {
    // 12.55 miles at $0.70 = $8.785; 0.33 miles at $0.67 = $0.2211; 7.5 hours at $0.07 = $0.525.
    expect(amount('F3', { trips: [{ miles: 12.5 }, { miles: 0.05 }] })).toBe(879);
    expect(amount('F3', { trips: [{ miles: 0.33 }] }, { ...rates, mileageRate: 0.67 })).toBe(22);
    expect(amount('F10', { hours: 7.5, hourlyRate: 0.07 })).toBe(53);
  });

  it('count what is empty or refused as nothing, and say when the rate is not known here', () => {
    expect(amount('F3', { trips: [{ miles: null }, { miles: -4 }] })).toBe(0);
    expect(amount('F11', { checkIn: '2025-10-03', checkOut: '2025-10-01', nightlyRate: 100 })).toBe(0);
    expect(amount('F2', {})).toBe(0);
    expect(amount('F3', { trips: [{ miles: 10 }] }, null)).toBeNull();
    expect(amount('F12', { days: [{ lunch: true }] }, null)).toBeNull();
  });
});

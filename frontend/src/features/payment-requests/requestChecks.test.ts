import { describe, expect, it } from 'vitest';
import { servedRules } from '../../test/formTypes';
import { emptyValues } from './forms';
import { checkRequest, inWords, shownAtInput } from './requestChecks';

describe('request checks in the browser', () => {
  it('find every problem of an empty F2 at once, in words', () => {
    const rules = servedRules('F2');
    expect(checkRequest('F2', emptyValues('F2', rules), rules)).toEqual({
      participationId: 'Choose the payee',
      'details.items[0].date': 'Enter the item 1 date',
      'details.items[0].description': 'Enter the item 1 description',
      'details.items[0].amount': 'Enter the item 1 amount',
    });
  });

  it('find nothing on a filled F2, and an item amount of zero (the rule adds it)', () => {
    const rules = servedRules('F2');
    const v = emptyValues('F2', rules);
    v.participationId = 3;
    v.details.items = [{ date: '2025-10-01', description: 'Books', amount: 12.5 }];
    expect(checkRequest('F2', v, rules)).toEqual({});
    v.details.items = [{ date: '2025-10-01', description: 'Books', amount: 0 }];
    expect(checkRequest('F2', v, rules)).toEqual({ 'details.items[0].amount': 'Item 1 amount must be more than $0' });
    v.details.items = [];
    expect(checkRequest('F2', v, rules)).toEqual({ 'details.items': 'Add at least one item' });
  });

  it('ask for an entered amount and every list the rules require, not the optional one', () => {
    const rules = servedRules('F4');
    const v = emptyValues('F4', rules);
    const errors = checkRequest('F4', v, rules);
    expect(errors.requestedAmount).toBe('Enter the requested amount');
    expect(errors['details.trainingTypeId']).toBe('Choose the training type');
    expect(errors['details.institutionId']).toBeUndefined();
    expect(errors['details.fee']).toBe('Enter the fee');
    v.requestedAmount = -1;
    v.details.fee = 0;
    const again = checkRequest('F4', v, rules);
    expect(again.requestedAmount).toBe('Requested amount must be more than $0');
    // A fee of nothing is allowed: the amount rule does not use it.
    expect(again['details.fee']).toBeUndefined();
  });

  it('want the amounts a product multiplies above zero, and a meal on every meal day', () => {
    const f10 = servedRules('F10');
    const v = emptyValues('F10', f10);
    v.details = { jobCategoryId: '1', date: '2025-10-01', hours: 0, hourlyRate: 20 };
    expect(checkRequest('F10', v, f10)['details.hours']).toBe('Hours must be more than 0');
    const f12 = servedRules('F12');
    const m = emptyValues('F12', f12);
    m.participationId = 1;
    m.details.days = [{ date: '2025-10-01', breakfast: false, lunch: false, dinner: false }];
    expect(checkRequest('F12', m, f12)).toEqual({ 'details.days[0]': 'Day 1 claims no meal: tick breakfast, lunch or dinner' });
  });
});

describe("the server's field errors in words", () => {
  it('name the field by its label, and a missing choice as a choice', () => {
    expect(
      inWords('F1', {
        participationId: 'is required',
        'details.placementEndDate': 'must not be before details.placementStartDate',
        'details.collegeId': 'is required',
        requestedAmount: 'must be at most $2,500.00 (the form\'s maximum)',
        participationWords: 'Already a sentence.',
      }),
    ).toEqual({
      participationId: 'Choose the payee',
      'details.placementEndDate': 'Placement end date must not be before the placement start date',
      'details.collegeId': 'Choose the college',
      requestedAmount: "Requested amount must be at most $2,500.00 (the form's maximum)",
      participationWords: 'Already a sentence.',
    });
    expect(inWords('F2', { 'details.items[1].amount': 'must be more than 0', 'details.fileIds[0]': 'is listed twice' })).toEqual({
      'details.items[1].amount': 'Item 2 amount must be more than 0',
      'details.fileIds[0]': 'Receipt 1 is listed twice',
    });
  });

  it('tell which keys an input shows', () => {
    const f2 = servedRules('F2');
    expect(shownAtInput('F2', f2, 'participationId')).toBe(true);
    expect(shownAtInput('F2', f2, 'details.items[0].amount')).toBe(true);
    expect(shownAtInput('F2', f2, 'requestedAmount')).toBe(false);
    expect(shownAtInput('F2', f2, 'details.fileIds[0]')).toBe(false);
    expect(shownAtInput('F12', servedRules('F12'), 'details.days[0]')).toBe(false);
    expect(shownAtInput('F12', servedRules('F12'), 'details.days[0].breakfast')).toBe(false);
  });
});

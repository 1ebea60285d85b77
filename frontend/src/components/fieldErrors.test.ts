import { describe, expect, it } from 'vitest';
import { fieldErrors, rowErrors, unshownErrors, unshownRowErrors } from './fieldErrors';

describe('field errors', () => {
  const error = {
    status: 400,
    title: 'Bad Request',
    detail: 'x',
    errors: { supportEmail: ['is not an e-mail address'], '[2].maxAmount': ['must not be negative', 'too big'], '[10].maxHours': ['x'] },
  };

  it('joins the messages of each field', () => {
    expect(fieldErrors(error)).toEqual({
      supportEmail: 'is not an e-mail address',
      '[2].maxAmount': 'must not be negative; too big',
      '[10].maxHours': 'x',
    });
    expect(fieldErrors(undefined)).toEqual({});
    expect(fieldErrors({ status: 409, title: 'Generic Error', detail: 'stale' })).toEqual({});
  });

  it('picks one row of a list body', () => {
    const all = fieldErrors(error);
    expect(rowErrors(all, 2)).toEqual({ maxAmount: 'must not be negative; too big' });
    expect(rowErrors(all, 1)).toEqual({});
    expect(rowErrors(all, 10)).toEqual({ maxHours: 'x' });
  });

  it('lists what no input shows', () => {
    expect(unshownErrors(fieldErrors(error), (f) => f.startsWith('['))).toEqual(['supportEmail: is not an e-mail address']);
  });

  it('lists row errors whose field no row input shows', () => {
    const errors = { '[0].message': 'is empty', '[1].colour': 'is unknown', supportEmail: 'is not an e-mail address' };
    expect(unshownRowErrors(errors, new Set(['message']))).toEqual(['[1].colour: is unknown', 'supportEmail: is not an e-mail address']);
  });
});

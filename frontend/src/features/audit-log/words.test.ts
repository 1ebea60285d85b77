import { describe, expect, it } from 'vitest';
import { fieldLabel, recordOf } from './words';

describe('an audit entry in words', () => {
  it('names fields as a reader reads them', () => {
    expect(fieldLabel('firstName')).toBe('First name');
    expect(fieldLabel('fiscalYearId')).toBe('Fiscal year');
    expect(fieldLabel('languageIds')).toBe('Languages');
    expect(fieldLabel('sign-in-failed')).toBe('Sign in failed');
    expect(fieldLabel('payment_request')).toBe('Payment request');
  });

  it('links a record to its page where it has one', () => {
    const entry = { before: null, after: null };
    expect(recordOf({ ...entry, entityType: 'participant', entityId: 7 })).toEqual({ label: 'Participant #7', to: '/participant/7/details' });
    expect(recordOf({ ...entry, entityType: 'payment_request', entityId: 9, formType: 'F2' })).toEqual({
      label: 'Payment request F2 #9',
      to: '/payment-request/F2/9/details',
    });
    expect(recordOf({ ...entry, entityType: 'payment_request', entityId: 9 })).toEqual({ label: 'Payment request #9' });
    expect(recordOf({ entityType: 'participation', entityId: 4, before: null, after: { participantId: 7 } }).to).toBe('/participant/7/details');
    // An update keeps only the changed fields: the list names the parent record beside them.
    const moved = { entityId: 4, before: { endDate: '2027-06-30' }, after: { endDate: '2027-05-31' } };
    expect(recordOf({ ...moved, entityType: 'participation', participantId: 7 }).to).toBe('/participant/7/details');
    expect(recordOf({ ...moved, entityType: 'participation' }).to).toBeUndefined();
    expect(recordOf({ ...moved, entityType: 'budget-line', fiscalYearId: 3 }).to).toBe('/budget/3/details');
    expect(recordOf({ ...entry, entityType: 'receipt', entityId: null })).toEqual({ label: 'Receipt' });
  });
});

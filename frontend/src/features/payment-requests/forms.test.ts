import { describe, expect, it } from 'vitest';
import { servedRules } from '../../test/formTypes';
import type { PaymentRequest } from './api';
import { bodyOf, emptyValues, valuesOf } from './forms';

describe('request forms', () => {
  it('send F1 with the entered amount and empty inputs as null', () => {
    const rules = servedRules('F1');
    const v = emptyValues('F1', rules);
    v.participationId = 4;
    v.requestedAmount = 100;
    v.details.collegeId = '2';
    v.details.hours = 12.5;
    const body = bodyOf('F1', v, rules, 3);
    expect(body).toMatchObject({ participationId: 4, requestedAmount: 100, version: 3, description: null });
    expect(body.details).toMatchObject({ collegeId: 2, hours: 12.5, placementStartDate: null });
  });

  it('send F3 trips without an amount (the server computes it), and read a stored request back', () => {
    const rules = servedRules('F3');
    const v = emptyValues('F3', rules);
    v.participationId = 1;
    v.requestedAmount = 5;
    v.details = { travelPurposeId: '1', transitTypeId: '2', trips: [{ date: '2025-10-01', from: 'Fresno', to: 'Clovis', miles: 12.5 }] };
    const body = bodyOf('F3', v, rules);
    expect(body.requestedAmount).toBeUndefined();
    expect(body.details).toEqual({ travelPurposeId: 1, transitTypeId: 2, trips: [{ date: '2025-10-01', from: 'Fresno', to: 'Clovis', miles: 12.5 }] });
    const back = valuesOf({ formType: 'F3', participationId: 1, mentorProgramId: 7, description: null, requestedAmount: 8.75, details: body.details } as PaymentRequest, rules);
    expect(back.details).toEqual(v.details);
    expect(back.mentorProgramId).toBe('7');
  });
});

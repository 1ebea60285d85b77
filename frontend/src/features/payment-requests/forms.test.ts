import { describe, expect, it } from 'vitest';
import type { PaymentRequest } from './api';
import { bodyOf, emptyValues, mileageCents, SUPPORTED_FORMS, valuesOf } from './forms';

describe('request forms', () => {
  it('edits every form type, F1 to F14, and nothing else', () => {
    const all = Array.from({ length: 14 }, (_, i) => `F${i + 1}`);
    expect([...SUPPORTED_FORMS].sort()).toEqual([...all].sort());
  });

  it('computes F3 mileage like the server (22.5 miles at $0.70, 0.33 miles at $0.67)', () => {
    const trips = [
      { date: '2025-10-01', from: 'a', to: 'b', miles: 12.5 as const },
      { date: '2025-10-02', from: 'b', to: 'a', miles: 10 as const },
    ];
    expect(mileageCents(trips, 0.7)).toBe(1575);
    expect(mileageCents([{ date: '', from: '', to: '', miles: 0.33 }], 0.67)).toBe(22);
    expect(mileageCents([{ date: '', from: '', to: '', miles: '' }], 0.7)).toBe(0);
    expect(mileageCents(trips, undefined)).toBe(0);
  });

  it('sends F1 with the entered amount and empty inputs as null', () => {
    const v = emptyValues();
    v.participationId = 4;
    v.requestedAmount = 100;
    v.f1.collegeId = '2';
    v.f1.hours = 12.5;
    const body = bodyOf('F1', v, 3);
    expect(body).toMatchObject({ participationId: 4, requestedAmount: 100, version: 3, description: null });
    expect(body.details).toMatchObject({ collegeId: 2, hours: 12.5, placementStartDate: null });
  });

  it('sends F3 trips without an amount, and reads a stored request back', () => {
    const v = emptyValues();
    v.participationId = 1;
    v.f3 = { travelPurposeId: '1', transitTypeId: '2', trips: [{ date: '2025-10-01', from: 'Fresno', to: 'Clovis', miles: 12.5 }] };
    const body = bodyOf('F3', v);
    expect(body.requestedAmount).toBeUndefined();
    expect(body.details).toEqual({ travelPurposeId: 1, transitTypeId: 2, trips: [{ date: '2025-10-01', from: 'Fresno', to: 'Clovis', miles: 12.5 }] });
    const back = valuesOf({ formType: 'F3', participationId: 1, description: null, requestedAmount: 8.75, details: body.details } as PaymentRequest);
    expect(back.f3).toEqual(v.f3);
  });
});

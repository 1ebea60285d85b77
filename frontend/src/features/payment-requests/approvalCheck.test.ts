import { describe, expect, it } from 'vitest';
import { approveBlocked, checkKey } from './approvalCheck';

const body = { approvedAmount: 90.5, approvalCodeId: 1, fundId: 2, expenseAccountId: 3 };
const clean = { errors: [], warnings: [] };
const warned = { errors: [], warnings: [{ code: 'budget', message: 'The budget line would go below zero.' }] };

describe('approval check', () => {
  it('tells the fields a check was asked for apart', () => {
    expect(checkKey(null)).toBe('');
    expect(checkKey(body)).toBe(checkKey({ ...body }));
    expect(checkKey(body)).not.toBe(checkKey({ ...body, approvedAmount: 90 }));
    expect(checkKey(body)).not.toBe(checkKey({ ...body, fundId: 3, expenseAccountId: 2 }));
  });

  it('lets Approve through only after a clean current check, warnings acknowledged', () => {
    const base = { canApprove: true, complete: true, acknowledged: false };
    expect(approveBlocked({ ...base, checked: clean })).toBe(false);
    expect(approveBlocked({ ...base, checked: null })).toBe(true);
    expect(approveBlocked({ ...base, checked: { errors: [{ code: 'amount', message: 'Too much' }], warnings: [] } })).toBe(true);
    expect(approveBlocked({ ...base, checked: warned })).toBe(true);
    expect(approveBlocked({ ...base, checked: warned, acknowledged: true })).toBe(false);
    expect(approveBlocked({ ...base, complete: false, checked: clean })).toBe(true);
    expect(approveBlocked({ ...base, canApprove: false, checked: clean })).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { hasTotals, identifyingCount, identifyingFirst } from './reportColumns';

describe('report columns', () => {
  it('shows the request and the payee first, the rest as they were', () => {
    const reimbursements = ['requestId', 'formType', 'formName', 'payee', 'payeeEmail', 'approvedAmount'];
    expect(identifyingFirst(reimbursements)).toEqual(['requestId', 'payee', 'formType', 'formName', 'payeeEmail', 'approvedAmount']);
    const approvals = ['approvedAt', 'approver', 'requestId', 'formType', 'payee', 'approvedAmount'];
    expect(identifyingFirst(approvals)).toEqual(['requestId', 'payee', 'approvedAt', 'approver', 'formType', 'approvedAmount']);
  });

  it('keeps the fiscal year beside what it budgets, at most two columns', () => {
    expect(identifyingFirst(['fiscalYear', 'mentorProgram', 'fund', 'expenseAccount', 'budgeted'])).toEqual([
      'fiscalYear',
      'mentorProgram',
      'fund',
      'expenseAccount',
      'budgeted',
    ]);
    expect(identifyingCount(['fiscalYear', 'mentorProgram', 'fund', 'budgeted'])).toBe(2);
    expect(identifyingCount(['requestId', 'formType'])).toBe(1);
    expect(identifyingCount(['formType', 'requestId'])).toBe(0);
  });

  it('shows totals only when the server gave them', () => {
    const report = { totals: ['budgeted', 'remaining'] };
    expect(hasTotals(report, { budgeted: 10, remaining: 2 })).toBe(true);
    expect(hasTotals(report, {})).toBe(false);
    expect(hasTotals(report, undefined)).toBe(false);
    expect(hasTotals({ totals: [] }, { budgeted: 1 })).toBe(false);
  });
});

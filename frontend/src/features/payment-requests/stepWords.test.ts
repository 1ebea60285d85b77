import { describe, expect, it } from 'vitest';
import type { ApprovalStepView } from './api';
import { currentStep, finalWords, startingAmount, stateWords, stepHeading, whoWords } from './stepWords';

const ann = { id: 1, email: 'ann@example.org', fullName: 'Ann Lee' };
const bob = { id: 2, email: 'bob@example.org', fullName: 'Bob Ray' };
const step = (state: ApprovalStepView['state'], more: Partial<ApprovalStepView> = {}): ApprovalStepView => ({
  name: 'Review',
  role: 'Finance',
  state,
  by: null,
  at: null,
  onBehalfOf: null,
  approvedAmount: null,
  ...more,
});

describe('approval steps in words', () => {
  it.each([
    ['done', 'Done'],
    ['current', 'Waiting for approval'],
    ['waiting', 'Not yet'],
  ] as const)('says the state %s as %s', (state, words) => expect(stateWords(state)).toBe(words));

  it.each([
    [{ by: null, onBehalfOf: null }, ''],
    [{ by: ann, onBehalfOf: null }, 'Ann Lee'],
    [{ by: ann, onBehalfOf: bob }, 'Ann Lee on behalf of Bob Ray'],
  ])('names who took a step (%#)', (who, words) => expect(whoWords(who)).toBe(words));

  it('heads the approve panel with the step and whether it is the last', () => {
    expect(stepHeading({ index: 1, count: 3, name: 'Finance review' })).toBe('Step 2 of 3: Finance review');
    expect(finalWords({ index: 1, count: 3 }, false)).toBe('Not the final step: approving it sends the request on to step 3.');
    expect(finalWords({ index: 2, count: 3 }, true)).toBe('The final step: approving it approves the request.');
    expect(finalWords({ index: 0, count: 1 }, true)).toBe('Approving approves the request.');
  });

  it('finds the current step, none when the chain is done or absent', () => {
    expect(currentStep([step('done'), { ...step('current'), name: 'Finance review' }, step('waiting')])).toEqual({
      name: 'Finance review',
      role: 'Finance',
      index: 1,
      count: 3,
    });
    expect(currentStep([step('done')])).toBeNull();
    expect(currentStep(undefined)).toBeNull();
  });

  it('starts a step from the last approved amount, else the requested one', () => {
    expect(startingAmount(undefined, 900)).toBe(900);
    expect(startingAmount([step('current')], 900)).toBe(900);
    expect(startingAmount([step('done', { approvedAmount: 850 }), step('done', { approvedAmount: 800 }), step('current')], 900)).toBe(800);
  });
});

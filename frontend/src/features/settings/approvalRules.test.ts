import { describe, expect, it } from 'vitest';
import { addStep, chainWords, emptyAmounts, fromWords, MAX_STEPS, moveStep, removeStep, stepErrorLines, stepErrors, stepLine, toDrafts, toSteps, unshownStepErrors } from './approvalRules';

const steps = [
  { name: 'Program review', role: 'Program Manager', fromAmount: 0 },
  { name: 'Finance review', role: 'Finance', fromAmount: 500 },
  { name: 'Director', role: 'Administrator', fromAmount: 5000 },
];

describe('approval rules editor', () => {
  it('keeps the steps through drafts unchanged', () => {
    expect(toSteps(toDrafts(steps))).toEqual(steps);
  });

  it('adds a step at the end, up to five, the first one from 0', () => {
    expect(addStep([])).toEqual([{ id: 1, name: '', role: null, fromAmount: 0 }]);
    const three = addStep(toDrafts(steps));
    expect(three).toHaveLength(4);
    expect(three[3]).toEqual({ id: 4, name: '', role: null, fromAmount: '' });
    let many = toDrafts(steps);
    for (let i = 0; i < 5; i++) many = addStep(many);
    expect(many).toHaveLength(MAX_STEPS);
  });

  it('removes a step but never the last one left', () => {
    expect(removeStep(toDrafts(steps), 1).map((d) => d.name)).toEqual(['Program review', 'Director']);
    const one = toDrafts(steps.slice(0, 1));
    expect(removeStep(one, 0)).toBe(one);
  });

  it.each([
    [0, 1, ['Finance review', 'Program review', 'Director']],
    [2, -1, ['Program review', 'Director', 'Finance review']],
    [0, -1, ['Program review', 'Finance review', 'Director']],
    [2, 1, ['Program review', 'Finance review', 'Director']],
  ] as const)('moves step %i by %i', (index, by, names) => {
    const moved = moveStep(toDrafts(steps), index, by);
    expect(moved.map((d) => d.name)).toEqual(names);
    // Each row keeps its own id, so its inputs move with it.
    expect(moved.map((d) => d.id).sort()).toEqual([1, 2, 3]);
  });

  it('finds the amounts left empty', () => {
    const drafts = addStep(toDrafts(steps));
    expect(emptyAmounts(drafts)).toEqual([3]);
    expect(emptyAmounts(toDrafts(steps))).toEqual([]);
  });

  it('puts the server errors on their step and lists the others', () => {
    const errors = { 'steps[1].role': 'must hold request:approve', 'steps[0].fromAmount': 'the first step starts at 0', steps: 'at most 5 steps' };
    expect(stepErrors(errors, 1)).toEqual({ role: 'must hold request:approve' });
    expect(stepErrors(errors, 0)).toEqual({ fromAmount: 'the first step starts at 0' });
    expect(stepErrors(errors, 2)).toEqual({});
    expect(unshownStepErrors(errors)).toEqual(['Steps: at most 5 steps']);
    expect(stepErrorLines(errors)).toEqual(['Step 2, role: must hold request:approve', 'Step 1, from amount: the first step starts at 0', 'Steps: at most 5 steps']);
  });

  it('says steps and a tried chain in words', () => {
    expect(fromWords(0)).toBe('any amount');
    expect(stepLine(steps[1]!)).toBe('Finance review (Finance), from $500.00');
    expect(chainWords(750, steps.slice(0, 2))).toBe('A request of $750.00 goes through 2 steps: 1. Program review (Program Manager), 2. Finance review (Finance).');
    expect(chainWords(10, steps.slice(0, 1))).toBe('A request of $10.00 goes through 1 step: 1. Program review (Program Manager).');
  });
});

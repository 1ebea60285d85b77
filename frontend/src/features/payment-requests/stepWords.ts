import type { ApprovalStepView, StepRef, StepState } from './api';

// The approval chain in words (stepWords.test.ts). The server says each step's state and
// who may take it; these only say it.

const STATE_WORDS: Record<StepState, string> = {
  done: 'Done',
  current: 'Waiting for approval',
  waiting: 'Not yet',
};

export const stateWords = (state: StepState): string => STATE_WORDS[state];

/** "Ann Lee", or "Ann Lee on behalf of Bob Ray" when a stand-in took the step; '' when nobody has yet. */
export function whoWords(step: Pick<ApprovalStepView, 'by' | 'onBehalfOf'>): string {
  if (!step.by) return '';
  return step.onBehalfOf ? `${step.by.fullName} on behalf of ${step.onBehalfOf.fullName}` : step.by.fullName;
}

/** "Step 2 of 3: Finance review". */
export const stepHeading = (step: Pick<StepRef, 'index' | 'count' | 'name'>): string => `Step ${step.index + 1} of ${step.count}: ${step.name}`;

/** What approving this step does to the request. */
export function finalWords(step: Pick<StepRef, 'index' | 'count'>, final: boolean): string {
  if (final) return step.count === 1 ? 'Approving approves the request.' : 'The final step: approving it approves the request.';
  return `Not the final step: approving it sends the request on to step ${step.index + 2}.`;
}

/** The step being waited for, as validate names it (index from 0), from the request's chain. */
export function currentStep(steps: ApprovalStepView[] | undefined): StepRef | null {
  const index = steps?.findIndex((s) => s.state === 'current') ?? -1;
  if (!steps || index < 0) return null;
  return { name: steps[index]!.name, role: steps[index]!.role, index, count: steps.length };
}

/** The amount a step starts from: the last amount an earlier step approved (a later step may only lower it), else the requested one. */
export function startingAmount(steps: ApprovalStepView[] | undefined, requested: number): number {
  const approved = (steps ?? []).filter((s) => s.state === 'done' && s.approvedAmount != null);
  return approved.length ? approved[approved.length - 1]!.approvedAmount! : requested;
}

import { formatMoney } from '../../components/money';
import type { ApprovalStep } from './api';

// The approval rules editor's pure parts (approvalRules.test.ts). Which steps apply to an amount
// is the server's rule alone (POST …/try); nothing here decides it.

/** A step as the editor holds it: the amount is empty while nothing parses. */
export interface StepDraft {
  /** Stable across moves, so each row keeps its own inputs. */
  id: number;
  name: string;
  role: string | null;
  fromAmount: number | '';
}

export const MAX_STEPS = 5;

export const toDrafts = (steps: ApprovalStep[]): StepDraft[] => steps.map((s, i) => ({ id: i + 1, name: s.name, role: s.role, fromAmount: s.fromAmount ?? 0 }));

/** The rows whose amount is empty: said at the field before anything is sent. */
export const emptyAmounts = (drafts: StepDraft[]): number[] => drafts.flatMap((d, i) => (d.fromAmount === '' ? [i] : []));

/** The wire steps (once `emptyAmounts` is empty); a blank name or role is the server's to refuse, at its field. */
export const toSteps = (drafts: StepDraft[]): ApprovalStep[] =>
  drafts.map((d) => ({ name: d.name.trim(), role: d.role ?? '', fromAmount: d.fromAmount === '' ? 0 : d.fromAmount }));

/** A new last step starts empty, except the first, which starts from nothing. */
export function addStep(drafts: StepDraft[]): StepDraft[] {
  if (drafts.length >= MAX_STEPS) return drafts;
  const id = Math.max(0, ...drafts.map((d) => d.id)) + 1;
  return [...drafts, { id, name: '', role: null, fromAmount: drafts.length === 0 ? 0 : '' }];
}

export function removeStep(drafts: StepDraft[], index: number): StepDraft[] {
  if (drafts.length <= 1) return drafts;
  return drafts.filter((_, i) => i !== index);
}

/** Step `index` one place earlier (-1) or later (+1); out of range changes nothing. */
export function moveStep(drafts: StepDraft[], index: number, by: -1 | 1): StepDraft[] {
  const to = index + by;
  if (index < 0 || index >= drafts.length || to < 0 || to >= drafts.length) return drafts;
  const out = [...drafts];
  [out[index], out[to]] = [out[to]!, out[index]!];
  return out;
}

/** The field errors of step `index` (`steps[1].role` -> `role`). */
export function stepErrors(errors: Record<string, string>, index: number): Record<string, string> {
  const prefix = `steps[${index}].`;
  const out: Record<string, string> = {};
  for (const [field, text] of Object.entries(errors)) if (field.startsWith(prefix)) out[field.slice(prefix.length)] = text;
  return out;
}

const STEP_FIELDS = new Set(['name', 'role', 'fromAmount']);

/** Errors no step's input shows (on `steps` itself: too many, none), as lines for the summary. */
export function unshownStepErrors(errors: Record<string, string>): string[] {
  const unshown = Object.entries(errors).filter(([field]) => {
    const m = /^steps\[\d+\]\.(.+)$/.exec(field);
    return !(m && STEP_FIELDS.has(m[1]!));
  });
  return stepErrorLines(Object.fromEntries(unshown));
}

/** The problems of a tried chain, one line each ("Step 2, role: …"). */
export function stepErrorLines(errors: Record<string, string>): string[] {
  const label: Record<string, string> = { name: 'name', role: 'role', fromAmount: 'from amount' };
  return Object.entries(errors).map(([field, text]) => {
    const m = /^steps\[(\d+)\]\.(.+)$/.exec(field);
    if (m) return `Step ${Number(m[1]) + 1}, ${label[m[2]!] ?? m[2]}: ${text}`;
    return field === 'steps' ? `Steps: ${text}` : `${field}: ${text}`;
  });
}

/** "from $500.00", or "any amount" for a step every request takes. */
export const fromWords = (fromAmount = 0): string => (fromAmount > 0 ? `from ${formatMoney(fromAmount)}` : 'any amount');

/** One step in a line: "Finance review (Finance), from $500.00". */
export const stepLine = (step: ApprovalStep): string => `${step.name} (${step.role}), ${fromWords(step.fromAmount)}`;

/** The chain a tried amount goes through, in words. */
export function chainWords(amount: number, steps: ApprovalStep[]): string {
  if (steps.length === 0) return `A request of ${formatMoney(amount)} needs no approval step.`;
  const names = steps.map((s, i) => `${i + 1}. ${s.name} (${s.role})`).join(', ');
  return `A request of ${formatMoney(amount)} goes through ${steps.length} step${steps.length === 1 ? '' : 's'}: ${names}.`;
}

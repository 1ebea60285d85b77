import { centsToInput, formatCents, parseMoneyInput, toCents } from '../../components/money';
import type { BudgetLine, BulkLine } from './api';

/** One row of the editable grid; amounts in cents. New rows have no id yet. */
export interface GridRow {
  key: string;
  id?: number;
  mentorProgramId: number | null;
  fundId: number | null;
  expenseAccountId: number | null;
  /** Budgeted amount being edited, in cents (null while the input is empty or refused). */
  amount: number | null;
  /** The budgeted amount exactly as typed (what the input shows). */
  amountText: string;
  /** As saved, in cents (0 for new rows). */
  savedAmount: number;
  approved: number;
}

export const comboKey = (r: Pick<GridRow, 'mentorProgramId' | 'fundId' | 'expenseAccountId'>) =>
  `${r.mentorProgramId}-${r.fundId}-${r.expenseAccountId}`;

export function rowsFromLines(lines: BudgetLine[]): GridRow[] {
  return lines.map((l) => ({
    key: `line-${l.id}`,
    id: l.id,
    mentorProgramId: l.mentorProgramId,
    fundId: l.fundId,
    expenseAccountId: l.expenseAccountId,
    amount: toCents(l.budgeted),
    amountText: centsToInput(toCents(l.budgeted)),
    savedAmount: toCents(l.budgeted),
    approved: toCents(l.approved),
  }));
}

let counter = 0;
export function newRow(): GridRow {
  counter += 1;
  return { key: `new-${counter}`, mentorProgramId: null, fundId: null, expenseAccountId: null, amount: null, amountText: '', savedAmount: 0, approved: 0 };
}

export const isChanged = (r: GridRow) => r.id === undefined || r.amount !== r.savedAmount || r.amountText !== centsToInput(r.savedAmount);

/** A row with what was typed: the amount is the typed text's cents, or null when refused. */
export function withAmountText(row: GridRow, text: string): GridRow {
  const parsed = parseMoneyInput(text);
  return { ...row, amountText: text, amount: parsed.error === undefined ? parsed.cents : null };
}

/** Saved lines whose new amount is below what is already approved on them. */
export function belowApproved(rows: GridRow[]): { key: string; amount: number; approved: number; short: number }[] {
  return rows
    .filter((r) => isChanged(r) && r.amount !== null && r.amount < r.approved)
    .map((r) => ({ key: r.key, amount: r.amount!, approved: r.approved, short: r.approved - r.amount! }));
}

/** "…: $500.00 is $198.18 below the $698.18 already approved" for the confirmation. */
export const belowApprovedText = (name: string, b: { amount: number; approved: number; short: number }) =>
  `${name}: ${formatCents(b.amount)} is ${formatCents(b.short)} below the ${formatCents(b.approved)} already approved.`;

/** Problems found before anything is sent, by row key and field. */
export function validateRows(rows: GridRow[]): Record<string, Partial<Record<'mentorProgramId' | 'fundId' | 'expenseAccountId' | 'amount', string>>> {
  const out: ReturnType<typeof validateRows> = {};
  const seen = new Map<string, string>();
  for (const r of rows) {
    const e: (typeof out)[string] = {};
    if (r.mentorProgramId === null) e.mentorProgramId = 'Pick a mentor program';
    if (r.fundId === null) e.fundId = 'Pick a fund';
    if (r.expenseAccountId === null) e.expenseAccountId = 'Pick an expense account';
    const typed = parseMoneyInput(r.amountText);
    if (typed.error) e.amount = typed.error;
    if (r.mentorProgramId !== null && r.fundId !== null && r.expenseAccountId !== null) {
      const combo = comboKey(r);
      if (seen.has(combo)) e.expenseAccountId = 'This program, fund and account already have a line';
      else seen.set(combo, r.key);
    }
    if (Object.keys(e).length) out[r.key] = e;
  }
  return out;
}

/** The body lines of a bulk save: only new and changed rows (the server upserts). */
export function changedLines(rows: GridRow[]): { keys: string[]; lines: BulkLine[] } {
  const changed = rows.filter(isChanged);
  return {
    keys: changed.map((r) => r.key),
    lines: changed.map((r) => ({
      mentorProgramId: r.mentorProgramId!,
      fundId: r.fundId!,
      expenseAccountId: r.expenseAccountId!,
      amount: (r.amount ?? 0) / 100,
    })),
  };
}

export interface Totals {
  budgeted: number;
  approved: number;
  remaining: number;
}
export function totals(rows: GridRow[]): Totals {
  const budgeted = rows.reduce((t, r) => t + (r.amount ?? 0), 0);
  const approved = rows.reduce((t, r) => t + r.approved, 0);
  return { budgeted, approved, remaining: budgeted - approved };
}

export interface ProgramBar {
  mentorProgramId: number;
  budgeted: number;
  approved: number;
}
/** Budgeted vs approved per mentor program (cents), biggest budget first. */
export function byProgram(rows: GridRow[]): ProgramBar[] {
  const map = new Map<number, ProgramBar>();
  for (const r of rows) {
    if (r.mentorProgramId === null) continue;
    const bar = map.get(r.mentorProgramId) ?? { mentorProgramId: r.mentorProgramId, budgeted: 0, approved: 0 };
    bar.budgeted += r.amount ?? 0;
    bar.approved += r.approved;
    map.set(r.mentorProgramId, bar);
  }
  return [...map.values()].sort((a, b) => b.budgeted - a.budgeted || a.mentorProgramId - b.mentorProgramId);
}

/**
 * The server's field errors of a bulk save (`lines[2].amount`, `[2].amount` or
 * `lines.2.amount`) mapped to the grid rows that were sent, by position.
 */
export function serverRowErrors(errors: Record<string, string>, sentKeys: string[]): { rows: Record<string, Record<string, string>>; other: string[] } {
  const rows: Record<string, Record<string, string>> = {};
  const other: string[] = [];
  for (const [field, text] of Object.entries(errors)) {
    const m = /^(?:lines)?(?:\[(\d+)\]|\.(\d+))\.?(\w+)$/.exec(field);
    const index = m ? Number(m[1] ?? m[2]) : NaN;
    const key = sentKeys[index];
    if (m && key) (rows[key] ??= {})[m[3]!] = text;
    else other.push(`${field}: ${text}`);
  }
  return { rows, other };
}

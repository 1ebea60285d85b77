import type { ReportInfo } from './api';

// Which report columns say what a row is, and whether a report's totals can be shown. Pure:
// reportColumns.test.ts.

/** Column keys that identify a row (the request, who is paid, whose budget), in the order they
 * are shown first. */
const IDENTIFYING = ['fiscalYear', 'requestId', 'payee', 'fullName', 'mentorProgram', 'fund', 'expenseAccount'] as const;

/** The mentor program reimbursements shown until the user picks: who is paid what, from which
 * account, with the amounts in view at 1280 px beside the menu; form, e-mail, college, fund,
 * code and submission day are one tick away (the exports carry every column). */
export const DEFAULT_REIMBURSEMENT_COLUMNS = ['requestId', 'payee', 'approvedAt', 'requestedAmount', 'approvedAmount', 'expenseAccount', 'formStatus'] as const;

/** At most this many identifying columns stay in place, so the rest keeps room to scroll. */
const MAX_STICKY = 2;

/** The keys with the identifying ones first (in the order above, at most two), the others as they were. */
export function identifyingFirst(keys: readonly string[]): string[] {
  const first = IDENTIFYING.filter((k) => keys.includes(k)).slice(0, MAX_STICKY) as string[];
  return [...first, ...keys.filter((k) => !first.includes(k))];
}

/** How many leading keys are identifying (the columns that stay in place). */
export function identifyingCount(keys: readonly string[]): number {
  let n = 0;
  while (n < keys.length && n < MAX_STICKY && (IDENTIFYING as readonly string[]).includes(keys[n])) n += 1;
  return n;
}

/** Whether the server gave totals for these rows (it gives none for rows of several fiscal years). */
export function hasTotals(report: Pick<ReportInfo, 'totals'>, totals: Record<string, unknown> | undefined): boolean {
  return report.totals.length > 0 && report.totals.some((k) => totals?.[k] != null);
}

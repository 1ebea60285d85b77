import { toCents } from '../../components/money';
import type { MoneyCategory } from '../../components/MoneyBarChart';
import type { ReportInfo, ReportRow } from './api';

// The report charts' data, from view rows, summed in integer cents. Pure: charts.test.ts.

/** Approvals by request type: the approved amount of each form, named as the report's Form
 * column names it ("F2 Expense reimbursement", the form catalogue's label), in the rows' order. */
export function approvedByFormType(rows: ReportRow[], report: Pick<ReportInfo, 'columns'>): MoneyCategory[] {
  const labels = report.columns.find((c) => c.key === 'formType')?.labels ?? {};
  return rows.map((r) => {
    const code = String(r.formType ?? '');
    return { label: labels[code] ?? code, cents: { approvedSum: toCents(r.approvedSum as number | null) } };
  });
}

/** Actual vs budget: budgeted and actual per mentor program (its lines summed), biggest budget
 * first; per program and fiscal year when the rows hold several years (budgets of different
 * years are never added). */
export function budgetByProgram(rows: ReportRow[]): MoneyCategory[] {
  const map = new Map<string, { budgeted: number; actual: number }>();
  const years = new Set(rows.map((r) => String(r.fiscalYear ?? '')));
  for (const r of rows) {
    const program = String(r.mentorProgram ?? '');
    const name = years.size > 1 ? `${program} (${String(r.fiscalYear ?? '')})` : program;
    const sum = map.get(name) ?? { budgeted: 0, actual: 0 };
    sum.budgeted += toCents(r.budgeted as number | null);
    sum.actual += toCents(r.actual as number | null);
    map.set(name, sum);
  }
  return [...map.entries()]
    .sort(([a, x], [b, y]) => y.budgeted - x.budgeted || a.localeCompare(b))
    .map(([label, cents]) => ({ label, cents }));
}

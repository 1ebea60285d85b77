import { formatMoney } from '../../components/money';

// Pure rules of the vendor payment screens (tested in VendorPaymentRules.test.ts).

export interface YearBounds {
  id: number;
  startDate: string;
  endDate: string;
}

/** How many requests wait to be paid in one fiscal year (GET /reports/vendor-payments/ready). */
export interface Waiting {
  fiscalYearId: number;
  count: number;
}

/**
 * The year a generation opens on: the earliest one with requests ready for processing (they
 * are paid oldest first), else the fiscal year holding `today`, else the latest one;
 * undefined without years.
 */
export function defaultYear<T extends YearBounds>(years: readonly T[], today: string, waiting: readonly Waiting[] = []): T | undefined {
  const ready = waiting.find((w) => w.count > 0 && years.some((y) => y.id === w.fiscalYearId));
  if (ready) return years.find((y) => y.id === ready.fiscalYearId);
  const covering = years.find((y) => y.startDate <= today && today <= y.endDate);
  if (covering) return covering;
  return [...years].sort((a, b) => b.startDate.localeCompare(a.startDate))[0];
}

/** A fiscal year's choice in the generate form: its name and what waits in it. */
export function yearLabel(name: string, waiting: number): string {
  if (waiting === 0) return `${name} (nothing ready)`;
  return `${name} (${waiting} ready)`;
}

/** The question asked before a generation: it says what will happen. */
export function confirmText(count: number, total: number): string {
  const requests = count === 1 ? '1 request' : `${count} requests`;
  return `Generate a vendor payment report for ${requests} totalling ${formatMoney(total)}? They will be marked Processed.`;
}

/** A range the server accepts: both days given, the end not before the start. */
export function rangeProblem(start: string | null, end: string | null): string | undefined {
  if (!start || !end) return 'Choose both dates.';
  if (end < start) return 'The end date must not be before the start date.';
  return undefined;
}


import dayjs from 'dayjs';
import { formatMoney } from '../../components/money';

// Pure rules of the vendor payment screens (tested in VendorPaymentRules.test.ts).

export interface YearBounds {
  id: number;
  startDate: string;
  endDate: string;
}

/** How many requests wait to be paid in one fiscal year, and when the first and the last of
 * them were approved (GET /reports/vendor-payments/ready). */
export interface Waiting {
  fiscalYearId: number;
  count: number;
  firstApprovedAt?: string;
  lastApprovedAt?: string;
}

/**
 * The year a generation opens on: the one holding the most requests ready for processing (the
 * earliest of equals), else the fiscal year holding `today`, else the latest one; undefined
 * without years.
 */
export function defaultYear<T extends YearBounds>(years: readonly T[], today: string, waiting: readonly Waiting[] = []): T | undefined {
  const known = waiting.filter((w) => w.count > 0 && years.some((y) => y.id === w.fiscalYearId));
  const most = known.reduce<Waiting | undefined>((best, w) => (!best || w.count > best.count ? w : best), undefined);
  if (most) return years.find((y) => y.id === most.fiscalYearId);
  const covering = years.find((y) => y.startDate <= today && today <= y.endDate);
  if (covering) return covering;
  return [...years].sort((a, b) => b.startDate.localeCompare(a.startDate))[0];
}

/** The local day of a UTC instant, as the preview's MinutesOffset reads it. */
export const localDay = (utc: string): string => dayjs(utc).format('YYYY-MM-DD');

/**
 * The approval days a year's generation opens on: the year's own, widened to its ready
 * requests' first and last approval (approvals trail a year's end, and a range of the year's
 * days alone would leave those out).
 */
export function rangeHolding(year: YearBounds, waiting?: Waiting): { start: string; end: string } {
  const first = waiting?.firstApprovedAt ? localDay(waiting.firstApprovedAt) : year.startDate;
  const last = waiting?.lastApprovedAt ? localDay(waiting.lastApprovedAt) : year.endDate;
  return { start: first < year.startDate ? first : year.startDate, end: last > year.endDate ? last : year.endDate };
}

/** What a preview's range leaves out of its year's ready requests, in words. */
export function outsideText(count: number, amount: number, yearName: string): string {
  const requests = count === 1 ? '1 request' : `${count} requests`;
  const verb = count === 1 ? 'was' : 'were';
  return `${requests} of ${yearName} ready for processing, totalling ${formatMoney(amount)}, ${verb} approved outside these dates and ${count === 1 ? 'is' : 'are'} not in this preview.`;
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


import dayjs from 'dayjs';
import { formatMoney } from '../../components/money';

// Pure rules of the vendor payment screens (tested in VendorPaymentRules.test.ts).

export interface YearBounds {
  id: number;
  startDate: string;
  endDate: string;
}

/** The fiscal year holding `today`, else the latest one; undefined without years. */
export function defaultYear<T extends YearBounds>(years: readonly T[], today: string): T | undefined {
  const covering = years.find((y) => y.startDate <= today && today <= y.endDate);
  if (covering) return covering;
  return [...years].sort((a, b) => b.startDate.localeCompare(a.startDate))[0];
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

/** A UTC timestamp in the browser's local time: "2026-11-23 09:15". */
export const localTime = (utc: string): string => dayjs(utc).format('YYYY-MM-DD HH:mm');

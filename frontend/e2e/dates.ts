// The tests' calendar. Every date a test writes or expects is built from "today", never from a
// literal that ages. Today is the server's: MENTORPAY_CLOCK (an RFC 3339 instant, or a date
// meaning 12:00 UTC that day) starts the server's clock at that instant and lets it run on, and
// the same variable starts this clock, so the tests, the server and the browser (fixtures.ts)
// share one day. Unset, all three run on the real time. UTC arithmetic only.

const DAY_MS = 86_400_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** A July-1-to-June-30 fiscal year, named as the specs and the server's demo name it ('2026-27'). */
export interface FiscalYear {
  name: string;
  startDate: string;
  endDate: string;
}

/** The ISO date of an instant, in UTC. */
const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Milliseconds of an ISO date at 00:00 UTC; refuses what is not a real calendar day. */
function dayMs(day: string): number {
  const ms = Date.parse(`${day}T00:00:00Z`);
  if (!DATE.test(day) || Number.isNaN(ms) || isoDate(ms) !== day) throw new Error(`${JSON.stringify(day)} is not a date (YYYY-MM-DD)`);
  return ms;
}

/** MENTORPAY_CLOCK's instant, read as the server reads it. */
export function parseClock(text: string): number {
  const value = text.trim();
  const day = value.slice(0, 10);
  const ms = DATE.test(value) ? Date.parse(`${value}T12:00:00Z`) : INSTANT.test(value) ? Date.parse(value) : NaN;
  const real = DATE.test(day) && isoDate(Date.parse(`${day}T00:00:00Z`) || 0) === day;
  if (Number.isNaN(ms) || !real) throw new Error(`MENTORPAY_CLOCK=${JSON.stringify(text)} is neither an RFC 3339 instant nor a date`);
  return ms;
}

const setting = process.env.MENTORPAY_CLOCK?.trim() || undefined;
/** Fixed when this module loads (once per worker), as the server fixes its own at start. */
const offset = setting ? parseClock(setting) - Date.now() : 0;

/** Whether MENTORPAY_CLOCK moves the calendar of this run. */
export const clockIsSet = setting !== undefined;

/** The current instant on the tests' clock (the real one unless MENTORPAY_CLOCK is set). */
export const now = (): Date => new Date(Date.now() + offset);

/** Today's date (UTC), YYYY-MM-DD. */
export const today = (): string => isoDate(now().getTime());

/** `day` moved by `n` days (negative: back). */
export const addDays = (day: string, n: number): string => isoDate(dayMs(day) + n * DAY_MS);

/** The fiscal year starting on 1 July of `startYear`. */
function yearFrom(startYear: number): FiscalYear {
  return {
    name: `${startYear}-${String((startYear + 1) % 100).padStart(2, '0')}`,
    startDate: `${startYear}-07-01`,
    endDate: `${startYear + 1}-06-30`,
  };
}

/** The fiscal year holding `day`. */
export function fiscalYearOf(day: string): FiscalYear {
  dayMs(day);
  const year = Number(day.slice(0, 4));
  return yearFrom(day.slice(5) >= '07-01' ? year : year - 1);
}

/** The fiscal year holding today. */
export const currentFiscalYear = (): FiscalYear => fiscalYearOf(today());

/** The fiscal year `offset` years from the current one (-1 the previous, 1 the next). */
export const fiscalYear = (offset: number): FiscalYear => yearFrom(Number(currentFiscalYear().startDate.slice(0, 4)) + offset);

/**
 * A day of the last days safe for an activity, seminar, trip or receipt: inside the current
 * fiscal year, not after today, and well inside every form's submission window (60 days at the
 * least), so neither a late-submission nor a future-date warning fires.
 */
export function recentDay(): string {
  const back = addDays(today(), -10);
  const start = currentFiscalYear().startDate;
  return back > start ? back : start;
}

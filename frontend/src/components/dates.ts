import dayjs from 'dayjs';

// One date format everywhere: "Nov 3, 2025" reads the same to everyone and
// cannot be mistaken between month-first and day-first. Timestamps add the local time.
// Every day and moment a screen shows goes through these two (the server's files and
// messages through `crate::text::day` and `moment`), so the format can change in one place.

/** A calendar date ("2025-11-03") or a timestamp, as "Nov 3, 2025"; '' for none. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  // A bare date is a calendar day: read it as local midnight, not UTC, so it never shifts.
  const d = /^\d{4}-\d{2}-\d{2}$/.test(value) ? dayjs(`${value}T00:00:00`) : dayjs(value);
  return d.isValid() ? d.format('MMM D, YYYY') : value;
}

/** A timestamp in local time: "Nov 3, 2025, 2:05 PM". */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '';
  const d = dayjs(value);
  return d.isValid() ? d.format('MMM D, YYYY, h:mm A') : value;
}

/** The names of a date picker's calendar buttons, which show only arrows and level words. */
export const CALENDAR_LABELS = {
  previousMonth: 'Previous month',
  nextMonth: 'Next month',
  previousYear: 'Previous year',
  nextYear: 'Next year',
  previousDecade: 'Previous decade',
  nextDecade: 'Next decade',
  monthLevelControl: 'Choose a month',
  yearLevelControl: 'Choose a year',
};

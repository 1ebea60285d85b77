import type { Schemas } from '../../api/wire';
import { toCents } from '../../components/money';
import { enumValues } from '../../lib/enums';

// The typed details of the forms without a hand-made editor (F2, F4–F14), described as data
// (src/forms/details.rs holds the wire shapes) for one generic renderer. Pure: tested in
// genericForms.test.ts.

/** Reference lists a field may pick from (each one a GET of the API). */
export type RefKey = 'colleges' | 'institutions' | 'trainingTypes' | 'jobCategories' | 'fiscalYears';

export interface FieldSpec {
  key: string;
  label: string;
  kind: 'text' | 'date' | 'number' | 'money' | 'ref' | 'choice' | 'bool';
  ref?: RefKey;
  /** `choice` fields: the server's enum values (LeadershipActivity, BonusType), checked
   * against the generated types by `enumValues`. */
  choices?: string[];
  /** The server accepts it empty (null); every other field is required. */
  optional?: boolean;
}

export interface FormSpec {
  fields: FieldSpec[];
  /** A list of rows (F2 items, F12 days). */
  rows?: { key: string; label: string; columns: FieldSpec[]; empty: () => Record<string, unknown> };
  /** The requester types the amount (otherwise the server computes it). */
  entered: boolean;
}

export const FORM_SPECS: Record<string, FormSpec> = {
  F2: {
    entered: false,
    fields: [],
    rows: {
      key: 'items',
      label: 'Item',
      columns: [
        { key: 'date', label: 'date', kind: 'date' },
        { key: 'description', label: 'description', kind: 'text' },
        { key: 'amount', label: 'amount', kind: 'money' },
      ],
      empty: () => ({ date: '', description: '', amount: '' }),
    },
  },
  F4: {
    entered: true,
    fields: [
      { key: 'trainingTypeId', label: 'Training type', kind: 'ref', ref: 'trainingTypes' },
      { key: 'institutionId', label: 'Institution', kind: 'ref', ref: 'institutions', optional: true },
      { key: 'title', label: 'Title', kind: 'text' },
      { key: 'startDate', label: 'Start date', kind: 'date' },
      { key: 'endDate', label: 'End date', kind: 'date' },
      { key: 'hours', label: 'Hours', kind: 'number' },
      { key: 'fee', label: 'Fee', kind: 'money' },
    ],
  },
  F5: {
    entered: true,
    fields: [
      { key: 'seminarDate', label: 'Seminar date', kind: 'date' },
      { key: 'topic', label: 'Topic', kind: 'text' },
      { key: 'hours', label: 'Hours', kind: 'number' },
    ],
  },
  F6: {
    entered: true,
    fields: [
      { key: 'activityType', label: 'Activity type', kind: 'choice', choices: enumValues<Schemas['LeadershipActivity']>({ Workshop: true, Presentation: true, Committee: true, Conference: true, Other: true }) },
      { key: 'date', label: 'Date', kind: 'date' },
      { key: 'hours', label: 'Hours', kind: 'number' },
    ],
  },
  F7: {
    entered: true,
    fields: [
      { key: 'protegeName', label: 'Protégé name', kind: 'text' },
      { key: 'siteName', label: 'Site name', kind: 'text' },
      { key: 'startDate', label: 'Start date', kind: 'date' },
      { key: 'endDate', label: 'End date', kind: 'date' },
      { key: 'placementEndDate', label: 'Placement end date', kind: 'date' },
    ],
  },
  F8: {
    entered: true,
    fields: [
      { key: 'institute', label: 'Institute', kind: 'text' },
      { key: 'startDate', label: 'Start date', kind: 'date' },
      { key: 'endDate', label: 'End date', kind: 'date' },
    ],
  },
  F9: {
    entered: false,
    fields: [
      { key: 'vendorName', label: 'Vendor name', kind: 'text' },
      { key: 'vendorAddress', label: 'Vendor address', kind: 'text' },
      { key: 'invoiceNumber', label: 'Invoice number', kind: 'text' },
      { key: 'invoiceDate', label: 'Invoice date', kind: 'date' },
      { key: 'amount', label: 'Invoice amount', kind: 'money' },
    ],
  },
  F10: {
    entered: false,
    fields: [
      { key: 'jobCategoryId', label: 'Job category', kind: 'ref', ref: 'jobCategories' },
      { key: 'date', label: 'Date', kind: 'date' },
      { key: 'hours', label: 'Hours', kind: 'number' },
      { key: 'hourlyRate', label: 'Hourly rate', kind: 'money' },
    ],
  },
  F11: {
    entered: false,
    fields: [
      { key: 'city', label: 'City', kind: 'text' },
      { key: 'checkIn', label: 'Check-in', kind: 'date' },
      { key: 'checkOut', label: 'Check-out', kind: 'date' },
      { key: 'nightlyRate', label: 'Nightly rate', kind: 'money' },
    ],
  },
  F12: {
    entered: false,
    fields: [],
    rows: {
      key: 'days',
      label: 'Day',
      columns: [
        { key: 'date', label: 'date', kind: 'date' },
        { key: 'breakfast', label: 'breakfast', kind: 'bool' },
        { key: 'lunch', label: 'lunch', kind: 'bool' },
        { key: 'dinner', label: 'dinner', kind: 'bool' },
      ],
      empty: () => ({ date: '', breakfast: false, lunch: false, dinner: false }),
    },
  },
  F13: {
    entered: true,
    fields: [
      { key: 'collegeId', label: 'College', kind: 'ref', ref: 'colleges' },
      { key: 'institutionId', label: 'Institution', kind: 'ref', ref: 'institutions' },
      { key: 'courseCode', label: 'Course code', kind: 'text' },
      { key: 'units', label: 'Units', kind: 'number' },
      { key: 'term', label: 'Term', kind: 'text' },
    ],
  },
  F14: {
    entered: true,
    fields: [
      { key: 'bonusType', label: 'Bonus type', kind: 'choice', choices: enumValues<Schemas['BonusType']>({ Completion: true, Retention: true, Leadership: true }) },
      { key: 'fiscalYearId', label: 'Fiscal year', kind: 'ref', ref: 'fiscalYears' },
      { key: 'reason', label: 'Reason', kind: 'text' },
    ],
  },
};

export type GenericValues = Record<string, unknown>;

const blank = (f: FieldSpec): unknown => (f.kind === 'bool' ? false : f.kind === 'ref' || f.kind === 'choice' ? null : '');

export function emptyGeneric(formType: string): GenericValues {
  const spec = FORM_SPECS[formType];
  if (!spec) return {};
  const v: GenericValues = {};
  for (const f of spec.fields) v[f.key] = blank(f);
  if (spec.rows) v[spec.rows.key] = [spec.rows.empty()];
  return v;
}

const read = (f: FieldSpec, raw: unknown): unknown => {
  if (f.kind === 'bool') return raw === true;
  if (raw === null || raw === undefined) return blank(f);
  if (f.kind === 'ref') return String(raw);
  return raw;
};

/** Stored details -> editable values (ids become the pickers' strings). */
export function genericValuesOf(formType: string, details: Record<string, unknown>): GenericValues {
  const spec = FORM_SPECS[formType];
  if (!spec) return {};
  const v: GenericValues = {};
  for (const f of spec.fields) v[f.key] = read(f, details[f.key]);
  if (spec.rows) {
    const rows = Array.isArray(details[spec.rows.key]) ? (details[spec.rows.key] as Record<string, unknown>[]) : [];
    v[spec.rows.key] = rows.map((r) => Object.fromEntries(spec.rows!.columns.map((c) => [c.key, read(c, r[c.key])])));
  }
  // F2's receipts travel as their ids; Receipts.tsx uploads and removes them.
  if (formType === 'F2') v.fileIds = Array.isArray(details.fileIds) ? details.fileIds : [];
  return v;
}

const write = (f: FieldSpec, value: unknown): unknown => {
  if (f.kind === 'bool') return value === true;
  if (value === '' || value === null || value === undefined) return null;
  if (f.kind === 'ref') return Number(value);
  return value;
};

/** Editable values -> the `details` of the body (empty inputs as null: the server names them). */
export function genericDetails(formType: string, v: GenericValues): Record<string, unknown> {
  const spec = FORM_SPECS[formType];
  if (!spec) return {};
  const out: Record<string, unknown> = {};
  for (const f of spec.fields) out[f.key] = write(f, v[f.key]);
  if (spec.rows) {
    const rows = (v[spec.rows.key] as Record<string, unknown>[] | undefined) ?? [];
    out[spec.rows.key] = rows.map((r) => Object.fromEntries(spec.rows!.columns.map((c) => [c.key, write(c, r[c.key])])));
  }
  if (formType === 'F2') out.fileIds = Array.isArray(v.fileIds) ? v.fileIds : [];
  return out;
}

const cents = (v: unknown) => toCents(typeof v === 'number' || typeof v === 'string' ? v : 0);
const days = (from: unknown, to: unknown) => {
  if (typeof from !== 'string' || typeof to !== 'string' || !from || !to) return 0;
  const n = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000;
  return Number.isFinite(n) && n > 0 ? n : 0;
};

/** The per-meal rates a Meals request records (the wire shape). */
export type MealRates = Schemas['MealRates'];

/**
 * What the server will compute for the forms whose amount is not entered (cents), or
 * null when it cannot be known here (F12 without the meal rates).
 */
export function computedCents(formType: string, v: GenericValues, mealRates?: MealRates): number | null {
  switch (formType) {
    case 'F2':
      return ((v.items as Record<string, unknown>[] | undefined) ?? []).reduce((s, i) => s + cents(i.amount), 0);
    case 'F9':
      return cents(v.amount);
    case 'F10':
      return Math.round((cents(v.hours) * cents(v.hourlyRate)) / 100);
    case 'F11':
      return days(v.checkIn, v.checkOut) * cents(v.nightlyRate);
    case 'F12': {
      if (!mealRates) return null;
      return ((v.days as Record<string, unknown>[] | undefined) ?? []).reduce(
        (s, d) =>
          s +
          (d.breakfast ? cents(mealRates.breakfast) : 0) +
          (d.lunch ? cents(mealRates.lunch) : 0) +
          (d.dinner ? cents(mealRates.dinner) : 0),
        0,
      );
    }
    default:
      return null;
  }
}

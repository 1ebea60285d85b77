import type { Schemas } from '../../api/wire';
import { enumValues } from '../../lib/enums';
import type { FormRules } from './formRules';

// How the UI lays out each form's typed details (src/forms/details.rs holds the wire shapes),
// as data for one editor (GenericFields.tsx) and one reader (detailsView.ts). What the server
// decides about a form (how its amount comes about, the list each id points into, whether an id
// may be left empty, its receipts) is not written here: it comes with the form's rules
// (formRules.ts). Pure: tested in genericForms.test.ts.

export interface FieldSpec {
  key: string;
  label: string;
  /** `ref`: an id from the reference list the form's rules name for this field. */
  kind: 'text' | 'date' | 'number' | 'money' | 'ref' | 'choice' | 'bool';
  /** `choice` fields: the server's enum values (LeadershipActivity, BonusType), checked
   * against the generated types by `enumValues`. */
  choices?: string[];
}

export interface FormSpec {
  /** A heading over the fields. */
  heading?: string;
  fields: FieldSpec[];
  /** A list of rows (F2 items, F3 trips, F12 days). */
  rows?: { key: string; label: string; columns: FieldSpec[] };
}

export const FORM_SPECS: Record<string, FormSpec> = {
  F1: {
    heading: 'Placement',
    fields: [
      { key: 'collegeId', label: 'College', kind: 'ref' },
      { key: 'menteeName', label: 'Mentee name', kind: 'text' },
      { key: 'courseCode', label: 'Course code', kind: 'text' },
      { key: 'hours', label: 'Hours', kind: 'number' },
      { key: 'placementStartDate', label: 'Placement start date', kind: 'date' },
      { key: 'placementEndDate', label: 'Placement end date', kind: 'date' },
    ],
  },
  F2: {
    fields: [],
    rows: {
      key: 'items',
      label: 'Item',
      columns: [
        { key: 'date', label: 'date', kind: 'date' },
        { key: 'description', label: 'description', kind: 'text' },
        { key: 'amount', label: 'amount', kind: 'money' },
      ],
    },
  },
  F3: {
    heading: 'Travel',
    fields: [
      { key: 'travelPurposeId', label: 'Travel purpose', kind: 'ref' },
      { key: 'transitTypeId', label: 'Transit type', kind: 'ref' },
    ],
    rows: {
      key: 'trips',
      label: 'Trip',
      columns: [
        { key: 'date', label: 'date', kind: 'date' },
        { key: 'from', label: 'from', kind: 'text' },
        { key: 'to', label: 'to', kind: 'text' },
        { key: 'miles', label: 'miles', kind: 'number' },
      ],
    },
  },
  F4: {
    fields: [
      { key: 'trainingTypeId', label: 'Training type', kind: 'ref' },
      { key: 'institutionId', label: 'Institution', kind: 'ref' },
      { key: 'title', label: 'Title', kind: 'text' },
      { key: 'startDate', label: 'Start date', kind: 'date' },
      { key: 'endDate', label: 'End date', kind: 'date' },
      { key: 'hours', label: 'Hours', kind: 'number' },
      { key: 'fee', label: 'Fee', kind: 'money' },
    ],
  },
  F5: {
    fields: [
      { key: 'seminarDate', label: 'Seminar date', kind: 'date' },
      { key: 'topic', label: 'Topic', kind: 'text' },
      { key: 'hours', label: 'Hours', kind: 'number' },
    ],
  },
  F6: {
    fields: [
      { key: 'activityType', label: 'Activity type', kind: 'choice', choices: enumValues<Schemas['LeadershipActivity']>({ Workshop: true, Presentation: true, Committee: true, Conference: true, Other: true }) },
      { key: 'date', label: 'Date', kind: 'date' },
      { key: 'hours', label: 'Hours', kind: 'number' },
    ],
  },
  F7: {
    fields: [
      { key: 'protegeName', label: 'Protégé name', kind: 'text' },
      { key: 'siteName', label: 'Site name', kind: 'text' },
      { key: 'startDate', label: 'Start date', kind: 'date' },
      { key: 'endDate', label: 'End date', kind: 'date' },
      { key: 'placementEndDate', label: 'Placement end date', kind: 'date' },
    ],
  },
  F8: {
    fields: [
      { key: 'institute', label: 'Institute', kind: 'text' },
      { key: 'startDate', label: 'Start date', kind: 'date' },
      { key: 'endDate', label: 'End date', kind: 'date' },
    ],
  },
  F9: {
    fields: [
      { key: 'vendorName', label: 'Vendor name', kind: 'text' },
      { key: 'vendorAddress', label: 'Vendor address', kind: 'text' },
      { key: 'invoiceNumber', label: 'Invoice number', kind: 'text' },
      { key: 'invoiceDate', label: 'Invoice date', kind: 'date' },
      { key: 'amount', label: 'Invoice amount', kind: 'money' },
    ],
  },
  F10: {
    fields: [
      { key: 'jobCategoryId', label: 'Job category', kind: 'ref' },
      { key: 'date', label: 'Date', kind: 'date' },
      { key: 'hours', label: 'Hours', kind: 'number' },
      { key: 'hourlyRate', label: 'Hourly rate', kind: 'money' },
    ],
  },
  F11: {
    fields: [
      { key: 'city', label: 'City', kind: 'text' },
      { key: 'checkIn', label: 'Check-in', kind: 'date' },
      { key: 'checkOut', label: 'Check-out', kind: 'date' },
      { key: 'nightlyRate', label: 'Nightly rate', kind: 'money' },
    ],
  },
  F12: {
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
    },
  },
  F13: {
    fields: [
      { key: 'collegeId', label: 'College', kind: 'ref' },
      { key: 'institutionId', label: 'Institution', kind: 'ref' },
      { key: 'courseCode', label: 'Course code', kind: 'text' },
      { key: 'units', label: 'Units', kind: 'number' },
      { key: 'term', label: 'Term', kind: 'text' },
    ],
  },
  F14: {
    fields: [
      { key: 'bonusType', label: 'Bonus type', kind: 'choice', choices: enumValues<Schemas['BonusType']>({ Completion: true, Retention: true, Leadership: true }) },
      { key: 'fiscalYearId', label: 'Fiscal year', kind: 'ref' },
      { key: 'reason', label: 'Reason', kind: 'text' },
    ],
  },
};

export type GenericValues = Record<string, unknown>;

const blank = (f: FieldSpec): unknown => (f.kind === 'bool' ? false : f.kind === 'ref' || f.kind === 'choice' ? null : '');

/** A new row of the form's row list: every column blank. */
export const emptyRow = (columns: FieldSpec[]): Record<string, unknown> => Object.fromEntries(columns.map((c) => [c.key, blank(c)]));

/** Receipts travel as their ids (Receipts.tsx uploads and removes them), in the field the rules name. */
const receiptIds = (rules: FormRules | undefined, from: Record<string, unknown>, to: Record<string, unknown>) => {
  if (!rules?.receipts) return;
  const ids = from[rules.receipts.field];
  to[rules.receipts.field] = Array.isArray(ids) ? ids : [];
};

export function emptyGeneric(formType: string, rules?: FormRules): GenericValues {
  const spec = FORM_SPECS[formType];
  if (!spec) return {};
  const v: GenericValues = {};
  for (const f of spec.fields) v[f.key] = blank(f);
  if (spec.rows) v[spec.rows.key] = [emptyRow(spec.rows.columns)];
  receiptIds(rules, {}, v);
  return v;
}

const read = (f: FieldSpec, raw: unknown): unknown => {
  if (f.kind === 'bool') return raw === true;
  if (raw === null || raw === undefined) return blank(f);
  if (f.kind === 'ref') return String(raw);
  return raw;
};

/** Stored details -> editable values (ids become the pickers' strings). */
export function genericValuesOf(formType: string, details: Record<string, unknown>, rules?: FormRules): GenericValues {
  const spec = FORM_SPECS[formType];
  if (!spec) return {};
  const v: GenericValues = {};
  for (const f of spec.fields) v[f.key] = read(f, details[f.key]);
  if (spec.rows) {
    const rows = Array.isArray(details[spec.rows.key]) ? (details[spec.rows.key] as Record<string, unknown>[]) : [];
    v[spec.rows.key] = rows.map((r) => Object.fromEntries(spec.rows!.columns.map((c) => [c.key, read(c, r[c.key])])));
  }
  receiptIds(rules, details, v);
  return v;
}

const write = (f: FieldSpec, value: unknown): unknown => {
  if (f.kind === 'bool') return value === true;
  if (value === '' || value === null || value === undefined) return null;
  if (f.kind === 'ref') return Number(value);
  return value;
};

/** Editable values -> the `details` of the body (empty inputs as null: the server names them). */
export function genericDetails(formType: string, v: GenericValues, rules?: FormRules): Record<string, unknown> {
  const spec = FORM_SPECS[formType];
  if (!spec) return {};
  const out: Record<string, unknown> = {};
  for (const f of spec.fields) out[f.key] = write(f, v[f.key]);
  if (spec.rows) {
    const rows = (v[spec.rows.key] as Record<string, unknown>[] | undefined) ?? [];
    out[spec.rows.key] = rows.map((r) => Object.fromEntries(spec.rows!.columns.map((c) => [c.key, write(c, r[c.key])])));
  }
  receiptIds(rules, v, out);
  return out;
}

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

type Kind = FieldSpec['kind'];

/**
 * Every field of the forms' details (row columns aside), once, by its key: a key is called and
 * entered the same way on every form that has it.
 */
const FIELDS = {
  collegeId: { label: 'College', kind: 'ref' },
  institutionId: { label: 'Institution', kind: 'ref' },
  trainingTypeId: { label: 'Training type', kind: 'ref' },
  travelPurposeId: { label: 'Travel purpose', kind: 'ref' },
  transitTypeId: { label: 'Transit type', kind: 'ref' },
  jobCategoryId: { label: 'Job category', kind: 'ref' },
  fiscalYearId: { label: 'Fiscal year', kind: 'ref' },
  menteeName: { label: 'Mentee name', kind: 'text' },
  protegeName: { label: 'Protégé name', kind: 'text' },
  courseCode: { label: 'Course code', kind: 'text' },
  title: { label: 'Title', kind: 'text' },
  topic: { label: 'Topic', kind: 'text' },
  siteName: { label: 'Site name', kind: 'text' },
  institute: { label: 'Institute', kind: 'text' },
  vendorName: { label: 'Vendor name', kind: 'text' },
  vendorAddress: { label: 'Vendor address', kind: 'text' },
  invoiceNumber: { label: 'Invoice number', kind: 'text' },
  city: { label: 'City', kind: 'text' },
  term: { label: 'Term', kind: 'text' },
  reason: { label: 'Reason', kind: 'text' },
  date: { label: 'Date', kind: 'date' },
  startDate: { label: 'Start date', kind: 'date' },
  endDate: { label: 'End date', kind: 'date' },
  placementStartDate: { label: 'Placement start date', kind: 'date' },
  placementEndDate: { label: 'Placement end date', kind: 'date' },
  seminarDate: { label: 'Seminar date', kind: 'date' },
  invoiceDate: { label: 'Invoice date', kind: 'date' },
  checkIn: { label: 'Check-in', kind: 'date' },
  checkOut: { label: 'Check-out', kind: 'date' },
  hours: { label: 'Hours', kind: 'number' },
  units: { label: 'Units', kind: 'number' },
  fee: { label: 'Fee', kind: 'money' },
  amount: { label: 'Invoice amount', kind: 'money' },
  hourlyRate: { label: 'Hourly rate', kind: 'money' },
  nightlyRate: { label: 'Nightly rate', kind: 'money' },
  activityType: {
    label: 'Activity type',
    kind: 'choice',
    choices: enumValues<Schemas['LeadershipActivity']>({ Workshop: true, Presentation: true, Committee: true, Conference: true, Other: true }),
  },
  bonusType: { label: 'Bonus type', kind: 'choice', choices: enumValues<Schemas['BonusType']>({ Completion: true, Retention: true, Leadership: true }) },
} satisfies Record<string, Omit<FieldSpec, 'key'>>;

/** A form: its fields in the order shown, an optional heading over them and an optional list of rows. */
const form = (keys: (keyof typeof FIELDS)[], more: Omit<FormSpec, 'fields'> = {}): FormSpec => ({
  ...more,
  fields: keys.map((key) => ({ key, ...FIELDS[key] })),
});

/** A form's list of rows; a column is headed by its key. */
const rowList = (key: string, label: string, columns: Record<string, Kind>): FormSpec['rows'] => ({
  key,
  label,
  columns: Object.entries(columns).map(([column, kind]) => ({ key: column, label: column, kind })),
});

export const FORM_SPECS: Record<string, FormSpec> = {
  F1: form(['collegeId', 'menteeName', 'courseCode', 'hours', 'placementStartDate', 'placementEndDate'], { heading: 'Placement' }),
  F2: form([], { rows: rowList('items', 'Item', { date: 'date', description: 'text', amount: 'money' }) }),
  F3: form(['travelPurposeId', 'transitTypeId'], { heading: 'Travel', rows: rowList('trips', 'Trip', { date: 'date', from: 'text', to: 'text', miles: 'number' }) }),
  F4: form(['trainingTypeId', 'institutionId', 'title', 'startDate', 'endDate', 'hours', 'fee']),
  F5: form(['seminarDate', 'topic', 'hours']),
  F6: form(['activityType', 'date', 'hours']),
  F7: form(['protegeName', 'siteName', 'startDate', 'endDate', 'placementEndDate']),
  F8: form(['institute', 'startDate', 'endDate']),
  F9: form(['vendorName', 'vendorAddress', 'invoiceNumber', 'invoiceDate', 'amount']),
  F10: form(['jobCategoryId', 'date', 'hours', 'hourlyRate']),
  F11: form(['city', 'checkIn', 'checkOut', 'nightlyRate']),
  F12: form([], { rows: rowList('days', 'Day', { date: 'date', breakfast: 'bool', lunch: 'bool', dinner: 'bool' }) }),
  F13: form(['collegeId', 'institutionId', 'courseCode', 'units', 'term']),
  F14: form(['bonusType', 'fiscalYearId', 'reason']),
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

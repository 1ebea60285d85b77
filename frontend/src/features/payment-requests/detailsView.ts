import { formatDate } from '../../components/dates';
import { formatMoney } from '../../components/money';
import type { RefItem } from '../../api/wire';
import { FORM_SPECS, type FieldSpec, type RefKey } from './genericForms';

// A request's typed details as read-only label/value lines (and one table for row lists),
// for the compact view of the details list. The generic forms are described in
// genericForms.ts; F1 and F3 (hand-made editors) are described here for reading only.
// Pure: tested in detailsView.test.ts.

export type ViewRefKey = RefKey | 'travelPurposes' | 'transitTypes';
type ViewField = Omit<FieldSpec, 'ref'> & { ref?: ViewRefKey };
interface ViewSpec {
  fields: ViewField[];
  rows?: { key: string; label: string; columns: ViewField[] };
}

const HAND_MADE: Record<string, ViewSpec> = {
  F1: {
    fields: [
      { key: 'collegeId', label: 'College', kind: 'ref', ref: 'colleges' },
      { key: 'menteeName', label: 'Mentee name', kind: 'text' },
      { key: 'courseCode', label: 'Course code', kind: 'text' },
      { key: 'placementStartDate', label: 'Placement start date', kind: 'date' },
      { key: 'placementEndDate', label: 'Placement end date', kind: 'date' },
      { key: 'hours', label: 'Hours', kind: 'number' },
    ],
  },
  F3: {
    fields: [
      { key: 'travelPurposeId', label: 'Travel purpose', kind: 'ref', ref: 'travelPurposes' },
      { key: 'transitTypeId', label: 'Transit type', kind: 'ref', ref: 'transitTypes' },
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
};

/** What the server records beside the typed fields (rates applied, F11 nights). */
const RECORDED: Record<string, ViewField[]> = {
  F3: [{ key: 'mileageRate', label: 'Mileage rate (per mile)', kind: 'money' }],
  F11: [{ key: 'nights', label: 'Nights', kind: 'number' }],
};

function specOf(formType: string): ViewSpec | undefined {
  const spec = HAND_MADE[formType] ?? FORM_SPECS[formType];
  if (!spec) return undefined;
  return { fields: [...spec.fields, ...(RECORDED[formType] ?? [])], rows: spec.rows };
}

/** The reference lists a form's details name by id (to fetch only those). */
export function refsOf(formType: string): ViewRefKey[] {
  const spec = specOf(formType);
  if (!spec) return [];
  const all = [...spec.fields, ...(spec.rows?.columns ?? [])].map((f) => f.ref).filter((r): r is ViewRefKey => r !== undefined);
  return [...new Set(all)];
}

export type ViewLookups = Partial<Record<ViewRefKey, RefItem[]>>;

const EMPTY = '—';
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export function formatValue(f: ViewField, raw: unknown, lookups: ViewLookups): string {
  if (f.kind === 'bool') return raw === true ? 'Yes' : 'No';
  if (raw === null || raw === undefined || raw === '') return EMPTY;
  switch (f.kind) {
    case 'money':
      return formatMoney(raw as number);
    case 'date':
      return formatDate(String(raw));
    case 'ref': {
      const item = lookups[f.ref!]?.find((i) => i.id === Number(raw));
      return item?.name ?? `#${String(raw)}`;
    }
    default:
      return String(raw);
  }
}

export interface DetailsView {
  lines: { label: string; value: string }[];
  table?: { label: string; columns: string[]; rows: string[][] };
}

/** The stored `details` of a request as lines and (F2 items, F3 trips, F12 days) one table. */
export function detailsView(formType: string, details: Record<string, unknown>, lookups: ViewLookups = {}): DetailsView {
  const spec = specOf(formType);
  if (!spec) return { lines: [] };
  const lines = spec.fields
    // Recorded values are shown only when the server wrote them.
    .filter((f) => !RECORDED[formType]?.includes(f) || details[f.key] != null)
    .map((f) => ({ label: f.label, value: formatValue(f, details[f.key], lookups) }));
  if (formType === 'F12' && details.mealRates && typeof details.mealRates === 'object') {
    const m = details.mealRates as Record<string, unknown>;
    const rate = (k: string) => formatMoney(m[k] as number);
    lines.push({ label: 'Meal rates', value: `breakfast ${rate('breakfast')}, lunch ${rate('lunch')}, dinner ${rate('dinner')}` });
  }
  if (!spec.rows) return { lines };
  const { key, label, columns } = spec.rows;
  const rows = Array.isArray(details[key]) ? (details[key] as Record<string, unknown>[]) : [];
  return {
    lines,
    table: {
      label: `${label}s`,
      columns: columns.map((c) => capital(c.label)),
      rows: rows.map((r) => columns.map((c) => formatValue(c, r[c.key], lookups))),
    },
  };
}

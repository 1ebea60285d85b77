import { formatDate } from '../../components/dates';
import { formatMoney } from '../../components/money';
import type { RefItem } from '../../api/wire';
import { referenceOf, type FormRules } from './formRules';
import { FORM_SPECS, type FieldSpec } from './genericForms';
import type { FormLists } from './useFormRules';

// A request's typed details as read-only label/value lines (and one table for row lists), for
// the request's document and the compact view of the details list, from the same layout the
// editor uses (genericForms.ts). Pure: tested in detailsView.test.ts.

/** What the server records beside the typed fields, by field (rates applied, nights). */
const RECORDED: FieldSpec[] = [
  { key: 'mileageRate', label: 'Mileage rate (per mile)', kind: 'money' },
  { key: 'nights', label: 'Nights', kind: 'number' },
];

const EMPTY = '—';
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** One value as text; `items` is the reference list a `ref` field picks from. */
export function formatValue(f: FieldSpec, raw: unknown, items?: RefItem[]): string {
  if (f.kind === 'bool') return raw === true ? 'Yes' : 'No';
  if (raw === null || raw === undefined || raw === '') return EMPTY;
  switch (f.kind) {
    case 'money':
      return formatMoney(raw as number);
    case 'date':
      return formatDate(String(raw));
    case 'ref':
      return items?.find((i) => i.id === Number(raw))?.name ?? `#${String(raw)}`;
    default:
      return String(raw);
  }
}

export interface DetailsView {
  lines: { label: string; value: string }[];
  table?: { label: string; columns: string[]; rows: string[][] };
}

/** The stored `details` of a request as lines and (F2 items, F3 trips, F12 days) one table. */
export function detailsView(formType: string, details: Record<string, unknown>, lookups: FormLists = {}, rules?: FormRules): DetailsView {
  const spec = FORM_SPECS[formType];
  if (!spec) return { lines: [] };
  const items = (f: FieldSpec) => {
    const list = referenceOf(rules, f.key)?.list;
    return list ? lookups[list] : undefined;
  };
  const lines = [
    ...spec.fields.map((f) => ({ label: f.label, value: formatValue(f, details[f.key], items(f)) })),
    // Recorded values are shown only when the server wrote them.
    ...RECORDED.filter((f) => details[f.key] != null).map((f) => ({ label: f.label, value: formatValue(f, details[f.key]) })),
  ];
  if (details.mealRates && typeof details.mealRates === 'object') {
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
      rows: rows.map((r) => columns.map((c) => formatValue(c, r[c.key]))),
    },
  };
}

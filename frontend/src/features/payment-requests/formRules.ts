import type { RefItem, Schemas } from '../../api/wire';
import { toCents } from '../../components/money';

// Each form's rules as the server serves them with the form types (GET /payment-requests/types):
// how its amount comes about, the reference lists its details pick from, the receipts it takes.
// The pages branch on these, never on a form's code. Pure: tested in formRules.test.ts.

export type FormRules = Schemas['FormRules'];
export type AmountRule = Schemas['AmountRule'];
/** A reference list, by the name of its table (`colleges`, `fiscal_years`). */
export type ListName = Schemas['Reference'];
/** The rates in force (GET /payment-requests/rates), or the ones a request recorded. */
export type Rates = Partial<Schemas['CurrentRates']>;

/** The rules of one form type; undefined until the types are there, or for an unknown code. */
export const rulesOf = (types: RefItem[] | undefined, formType: string): FormRules | undefined =>
  types?.find((t) => t.code === formType)?.form ?? undefined;

/** The reference lists the form's details pick from. */
export const listsOf = (rules: FormRules | undefined): Set<ListName> => new Set((rules?.references ?? []).map((r) => r.list));

/** The reference a details field picks from, if it picks from one. */
export const referenceOf = (rules: FormRules | undefined, field: string) => rules?.references.find((r) => r.field === field);

/** The requester types the amount (elsewhere the server computes it and ignores one sent). */
export const isEntered = (rules: FormRules | undefined) => rules?.amountSource === 'Entered';

/**
 * The rate in settings the amount is computed with, by its name in GET /payment-requests/rates
 * (a request records the rate applied in its details under the same name), or null.
 */
export function rateSetting(rule: AmountRule): string | null {
  if (rule.rule === 'meals') return rule.setting;
  if (rule.rule === 'product' && rule.rate.kind === 'setting') return rule.rate.setting;
  return null;
}

type Row = Record<string, unknown>;
const rowsOf = (details: Row, name: string): Row[] => (Array.isArray(details[name]) ? (details[name] as Row[]) : []);
/** Money in cents, or a quantity in hundredths: the same arithmetic. */
const hundredths = (v: unknown) => toCents(typeof v === 'number' || typeof v === 'string' ? v : 0);
const setting = (rates: Rates | undefined, name: string): unknown => (rates as Record<string, unknown> | undefined)?.[name];

function wholeDays(from: unknown, to: unknown): number {
  if (typeof from !== 'string' || typeof to !== 'string' || !from || !to) return 0;
  const n = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000;
  return Number.isFinite(n) && n > 0 ? n : 0;
}

function quantity(q: Schemas['AmountQuantity'], details: Row): number {
  switch (q.kind) {
    case 'field':
      return hundredths(details[q.field]);
    case 'sumOfRows':
      return rowsOf(details, q.rows).reduce((s, r) => s + Math.max(0, hundredths(r[q.column])), 0);
    case 'daysBetween':
      return wholeDays(details[q.from], details[q.to]) * 100;
  }
}

/** A product of hundredths and cents, to the cent, the way the rule says. */
function rounded(product: number, rounding: Schemas['Rounding']): number {
  switch (rounding) {
    case 'halfAwayFromZero':
      return Math.sign(product) * Math.floor((Math.abs(product) + 50) / 100);
  }
}

/**
 * What the server will compute from these details (cents), or null where it cannot be known
 * here: an entered amount, or a rate from settings that is not there.
 */
export function computedCents(rule: AmountRule, details: Row, rates: Rates | undefined): number | null {
  switch (rule.rule) {
    case 'entered':
      return null;
    case 'sum':
      return rowsOf(details, rule.rows).reduce((s, r) => s + hundredths(r[rule.column]), 0);
    case 'field':
      return hundredths(details[rule.field]);
    case 'product': {
      const rate = rule.rate.kind === 'field' ? details[rule.rate.field] : setting(rates, rule.rate.setting);
      if (rule.rate.kind === 'setting' && typeof rate !== 'number') return null;
      return rounded(quantity(rule.quantity, details) * hundredths(rate), rule.rounding);
    }
    case 'meals': {
      const meals = setting(rates, rule.setting);
      if (!meals || typeof meals !== 'object') return null;
      const priced = Object.entries(meals as Record<string, unknown>);
      return rowsOf(details, rule.rows).reduce((s, row) => s + priced.reduce((t, [meal, rate]) => t + (row[meal] === true ? hundredths(rate) : 0), 0), 0);
    }
  }
}

/** `$0.70 per mile`: the rate from settings a product uses, per unit, or null. */
export function ratePerUnit(rule: AmountRule, rates: Rates | undefined): { cents: number; unit: string } | null {
  if (rule.rule !== 'product' || rule.rate.kind !== 'setting') return null;
  const rate = setting(rates, rule.rate.setting);
  return typeof rate === 'number' ? { cents: hundredths(rate), unit: rule.rate.unit } : null;
}

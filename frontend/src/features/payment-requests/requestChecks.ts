import type { AmountRule, FormRules } from './formRules';
import { isEntered, referenceOf } from './formRules';
import type { RequestValues } from './forms';
import { FORM_SPECS, type FieldSpec, type FormSpec } from './genericForms';

// What a request form can know before anything is sent, from the served rules (which fields
// pick from a list and whether they may stay empty, how the amount comes about) and the layout:
// every field left empty, every amount the rule needs that is not above zero, a row list without
// rows, a meal day without a meal. Keys are the server's (`participationId`,
// `details.items[0].amount`), so the same inputs show either side's errors; messages are
// sentences that name their field ("Choose the payee"). The server's own field errors are put in
// the same words by `inWords`. Pure: tested in requestChecks.test.ts.

export type FieldErrors = Record<string, string>;

const lower = (label: string) => label.charAt(0).toLowerCase() + label.slice(1);
const upper = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const blank = (v: unknown) => v === '' || v === null || v === undefined || (typeof v === 'string' && v.trim() === '');
const picks = (f: FieldSpec) => f.kind === 'ref' || f.kind === 'choice';

/** "Choose the college", "Enter the item 1 date". */
const missing = (label: string, choose: boolean) => `${choose ? 'Choose' : 'Enter'} the ${lower(label)}`;

/** The fields and row columns whose value the amount rule multiplies or adds: they must be above zero. */
function positiveKeys(rule: AmountRule): { fields: string[]; columns: string[] } {
  switch (rule.rule) {
    case 'sum':
      return { fields: [], columns: [rule.column] };
    case 'field':
      return { fields: [rule.field], columns: [] };
    case 'product': {
      const fields = rule.rate.kind === 'field' ? [rule.rate.field] : [];
      if (rule.quantity.kind === 'field') fields.push(rule.quantity.field);
      return { fields, columns: rule.quantity.kind === 'sumOfRows' ? [rule.quantity.column] : [] };
    }
    default:
      return { fields: [], columns: [] };
  }
}

const notAboveZero = (v: unknown) => !blank(v) && !(Number(v) > 0);
const moreThanZero = (label: string, f: FieldSpec) => `${label} must be more than ${f.kind === 'money' ? '$0' : '0'}`;

/** "breakfast, lunch or dinner". */
const orList = (words: string[]) => (words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`);

const rowLabel = (spec: FormSpec, i: number, column?: string) => `${spec.rows!.label} ${i + 1}${column ? ` ${column}` : ''}`;

/** The problems of a request form that the browser can see, by the server's field names. */
export function checkRequest(formType: string, values: RequestValues, rules: FormRules): FieldErrors {
  const errors: FieldErrors = {};
  if (values.participationId === '') errors.participationId = 'Choose the payee';
  if (isEntered(rules)) {
    if (blank(values.requestedAmount)) errors.requestedAmount = 'Enter the requested amount';
    else if (!(Number(values.requestedAmount) > 0)) errors.requestedAmount = 'Requested amount must be more than $0';
  }
  const spec = FORM_SPECS[formType];
  if (!spec) return errors;
  const positive = positiveKeys(rules.amount);
  const details = values.details;
  for (const f of spec.fields) {
    const value = details[f.key];
    const key = `details.${f.key}`;
    if (f.kind === 'bool') continue;
    if (blank(value)) {
      if (!referenceOf(rules, f.key)?.optional) errors[key] = missing(f.label, picks(f));
    } else if (positive.fields.includes(f.key) && notAboveZero(value)) errors[key] = moreThanZero(f.label, f);
  }
  if (spec.rows) {
    const rows = Array.isArray(details[spec.rows.key]) ? (details[spec.rows.key] as Record<string, unknown>[]) : [];
    if (rows.length === 0) errors[`details.${spec.rows.key}`] = `Add at least one ${lower(spec.rows.label)}`;
    const bools = spec.rows.columns.filter((c) => c.kind === 'bool');
    rows.forEach((row, i) => {
      for (const c of spec.rows!.columns) {
        if (c.kind === 'bool') continue;
        const key = `details.${spec.rows!.key}[${i}].${c.key}`;
        const label = rowLabel(spec, i, c.label);
        if (blank(row[c.key])) errors[key] = missing(label, picks(c));
        else if (positive.columns.includes(c.key) && notAboveZero(row[c.key])) errors[key] = moreThanZero(upper(label), c);
      }
      // A meal day claims at least one of its meals.
      if (rules.amount.rule === 'meals' && bools.length > 0 && !bools.some((c) => row[c.key] === true)) {
        errors[`details.${spec.rows!.key}[${i}]`] = `${rowLabel(spec, i)} claims no meal: tick ${orList(bools.map((c) => c.label))}`;
      }
    });
  }
  return errors;
}

/** The label a server field name has on the request form ("Payee", "Item 2 amount"), and whether it is chosen from a list. */
export function fieldOf(formType: string, key: string): { label: string; choose: boolean } | null {
  const common: Record<string, { label: string; choose: boolean }> = {
    participationId: { label: 'Payee', choose: true },
    mentorProgramId: { label: 'Mentor program', choose: true },
    requestedAmount: { label: 'Requested amount', choose: false },
    description: { label: 'Description', choose: false },
  };
  if (common[key]) return common[key];
  const spec = FORM_SPECS[formType];
  const m = /^details\.([A-Za-z]+)(?:\[(\d+)\](?:\.([A-Za-z]+))?)?$/.exec(key);
  if (!spec || !m) return null;
  const [, name, index, column] = m;
  if (spec.rows && name === spec.rows.key) {
    if (index === undefined) return { label: `${spec.rows.label}s`, choose: false };
    const c = column ? spec.rows.columns.find((x) => x.key === column) : undefined;
    if (column && !c) return null;
    return { label: rowLabel(spec, Number(index), c?.label), choose: !!c && picks(c) };
  }
  const f = spec.fields.find((x) => x.key === name);
  if (f && index === undefined) return { label: f.label, choose: picks(f) };
  if (name === 'fileIds') return { label: index === undefined ? 'Receipts' : `Receipt ${Number(index) + 1}`, choose: false };
  return null;
}

/**
 * The server's field errors (fragments such as "is required", "must not be before
 * details.startDate") as sentences that name their field, in the words of the form.
 */
export function inWords(formType: string, errors: FieldErrors): FieldErrors {
  const out: FieldErrors = {};
  for (const [key, message] of Object.entries(errors)) {
    const field = fieldOf(formType, key);
    // Other fields a message names are called by their labels too.
    const text = message.replace(/details\.[A-Za-z]+(?:\[\d+\](?:\.[A-Za-z]+)?)?/g, (k) => {
      const other = fieldOf(formType, k);
      return other ? `the ${lower(other.label)}` : k;
    });
    if (!field) out[key] = text;
    else if (text.trim() === 'is required') out[key] = missing(field.label, field.choose);
    else out[key] = /^[a-z]/.test(text) ? `${field.label} ${text}` : text;
  }
  return out;
}

/** Whether a field error of this key is shown at an input of the form (others are listed in the error summary). */
export function shownAtInput(formType: string, rules: FormRules, key: string): boolean {
  if (key === 'participationId' || key === 'mentorProgramId' || key === 'description') return true;
  if (key === 'requestedAmount') return isEntered(rules);
  const spec = FORM_SPECS[formType];
  const m = /^details\.([A-Za-z]+)(?:\[(\d+)\]\.([A-Za-z]+))?$/.exec(key);
  if (!spec || !m) return false;
  const [, name, index, column] = m;
  if (index !== undefined) return !!spec.rows && spec.rows.key === name && spec.rows.columns.some((c) => c.key === column && c.kind !== 'bool');
  return spec.fields.some((f) => f.key === name && f.kind !== 'bool');
}

import type { ApiError } from '../api/errors';

/**
 * The server's field errors (`errors.firstName`, `errors["[2].maxAmount"]`,
 * `errors["mealRates.lunch"]`) as one message per field, for the inputs' `error` prop.
 */
export function fieldErrors(error: unknown): Record<string, string> {
  const errors = (error as ApiError | undefined)?.errors;
  if (!errors) return {};
  const out: Record<string, string> = {};
  for (const [field, messages] of Object.entries(errors)) {
    const text = Array.isArray(messages) ? messages.join('; ') : String(messages);
    // Messages are fragments ('must not be negative'); the field label says which.
    out[field] = text;
  }
  return out;
}

/** Field errors of row `index` of a list body (`[3].maxAmount` -> `maxAmount`). */
export function rowErrors(errors: Record<string, string>, index: number): Record<string, string> {
  const prefix = `[${index}].`;
  const out: Record<string, string> = {};
  for (const [field, text] of Object.entries(errors)) if (field.startsWith(prefix)) out[field.slice(prefix.length)] = text;
  return out;
}

/** Field errors no input shows (so the page can list them instead of losing them). */
export function unshownErrors(errors: Record<string, string>, shown: (field: string) => boolean): string[] {
  return Object.entries(errors)
    .filter(([field]) => !shown(field))
    .map(([field, text]) => `${field}: ${text}`);
}

/** Errors of a list's rows (`[3].maxAmount`) whose field the rows do not show. */
export function unshownRowErrors(errors: Record<string, string>, shownFields: ReadonlySet<string>): string[] {
  return unshownErrors(errors, (f) => {
    const m = /^\[\d+\]\.(.+)$/.exec(f);
    return !!m && shownFields.has(m[1]!);
  });
}

import type { RefItem } from '../api/wire';
import served from './formTypes.json';

/**
 * GET /payment-requests/types exactly as the server answers it, for unit tests of the pages
 * that read the form rules (a Rust test, `the_frontend_copy_is_the_served_catalogue`, fails
 * when the file and the server part).
 */
export const FORM_TYPES = served as unknown as RefItem[];

/** One form's rules from the served list. */
export function servedRules(code: string) {
  const rules = FORM_TYPES.find((t) => t.code === code)?.form;
  if (!rules) throw new Error(`no form ${code}`);
  return rules;
}

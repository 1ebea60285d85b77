import type { ApiError } from '../../api/errors';
import { splitFieldErrors } from './participantForm';

// What a failed save means for the form. Pure: tested in saveErrors.test.ts.

export type SaveProblem<F extends string> =
  | { kind: 'fields'; byField: Partial<Record<F, string>>; other: string[] }
  /** Someone else saved first (stale `version`): the user must reload. */
  | { kind: 'conflict'; detail: string }
  | { kind: 'other'; detail: string };

export const CONFLICT_TEXT =
  'This participant was changed by someone else since you opened it. Reload to see the latest version, then make your changes again.';

export function saveProblem<F extends string>(error: ApiError, fields: readonly F[], emailField?: F): SaveProblem<F> {
  const { byField, other } = splitFieldErrors(error.errors, fields);
  if (Object.keys(byField).length > 0) return { kind: 'fields', byField, other };
  if (error.status === 409) {
    // The server answers 409 both for a stale version and for a taken e-mail;
    // only the detail tells them apart.
    if (emailField && /e-?mail/i.test(error.detail)) return { kind: 'fields', byField: { [emailField]: error.detail } as Partial<Record<F, string>>, other };
    return { kind: 'conflict', detail: error.detail };
  }
  return { kind: 'other', detail: other.length ? `${error.detail} ${other.join('; ')}` : error.detail };
}

import { isStale, type ApiError } from '../../api/errors';

// What a failed save means for the form. Pure: tested in saveErrors.test.ts.

const sentence = (message: string) => (message ? message[0].toUpperCase() + message.slice(1) : message);

/**
 * Splits a problem body's `errors` into messages per form field (keys such as
 * `firstName`, `workplaceSettingIds[2]` or `FirstName` all land on their
 * field) and the rest, which the form shows above its buttons.
 */
export function splitFieldErrors<F extends string>(
  errors: Record<string, string[]> | undefined,
  fields: readonly F[],
): { byField: Partial<Record<F, string>>; other: string[] } {
  const byField: Partial<Record<F, string>> = {};
  const other: string[] = [];
  for (const [key, messages] of Object.entries(errors ?? {})) {
    const root = key.split(/[.[]/)[0].toLowerCase();
    const field = fields.find((f) => f.toLowerCase() === root);
    const text = (Array.isArray(messages) ? messages : [String(messages)]).map(sentence).join(' ');
    if (field) byField[field] = byField[field] ? `${byField[field]} ${text}` : text;
    else other.push(`${key}: ${text}`);
  }
  return { byField, other };
}

export type SaveProblem<F extends string> =
  | { kind: 'fields'; byField: Partial<Record<F, string>>; other: string[] }
  /** Someone else saved first (stale `version`): the user must reload. */
  | { kind: 'conflict'; detail: string }
  | { kind: 'other'; detail: string };

export function saveProblem<F extends string>(error: ApiError, fields: readonly F[], emailField?: F): SaveProblem<F> {
  if (isStale(error)) return { kind: 'conflict', detail: error.detail };
  const { byField, other } = splitFieldErrors(error.errors, fields);
  if (Object.keys(byField).length > 0) return { kind: 'fields', byField, other };
  // The other conflict a participant meets: its e-mail is taken.
  if (error.status === 409 && emailField && /e-?mail/i.test(error.detail)) {
    return { kind: 'fields', byField: { [emailField]: error.detail } as Partial<Record<F, string>>, other };
  }
  return { kind: 'other', detail: other.length ? `${error.detail} ${other.join('; ')}` : error.detail };
}

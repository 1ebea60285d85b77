/**
 * Safe retries of the saves that create or move money: each such POST carries an
 * `Idempotency-Key` (the server keeps its first answer a day per user and key and replays it).
 * A key is drawn when the user presses save; while that save has no answer (the network
 * failed, the server erred or was still busy with it) the same save again (same route, same
 * body) is a retry and carries the same key, so the server runs it at most once. Once the
 * save was answered, the next press is a new save with a new key.
 */

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** The POST routes the server accepts a key on (the OpenAPI document lists the same). */
const KEYED_ROUTES: readonly RegExp[] = [
  /^\/participants$/,
  /^\/participants\/import$/,
  /^\/payment-requests\/move-to-statuses\/ready-for-processing\/batch$/,
  /^\/payment-requests\/[^/]+$/,
  /^\/payment-requests\/[^/]+\/\d+\/(submit|approve)$/,
  /^\/reports\/vendor-payments$/,
];

/** Whether `method url` takes a key (the url relative to the API base, query ignored). */
export function isKeyed(method: string | undefined, url: string): boolean {
  const path = url.split('?')[0];
  return (method ?? 'GET').toUpperCase() === 'POST' && KEYED_ROUTES.some((route) => route.test(path));
}

/** An unanswered save is retried within this time; the server keeps a key for 24 hours. */
const UNANSWERED_FOR_MS = 12 * 60 * 60 * 1000;

interface Unanswered {
  key: string;
  since: number;
}

/** Saves sent and not yet answered, by what they send. */
const unanswered = new Map<string, Unanswered>();

function newKey(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;
}

/** What a save sends, as text: a file stands for itself by name, size and date. */
function fingerprint(method: string, url: string, params: unknown, body: unknown): string {
  let sent: unknown = body;
  if (typeof FormData !== 'undefined' && body instanceof FormData) {
    sent = [...body.entries()].map(([name, value]) =>
      typeof value === 'string' ? [name, value] : [name, value.name, value.size, value.lastModified],
    );
  }
  return JSON.stringify([method.toUpperCase(), url, params ?? null, sent ?? null]);
}

/** A save's key: the one of the same save still unanswered (a retry), else a new one. */
export function keyForSave(method: string, url: string, params: unknown, body: unknown, now = Date.now()): {
  key: string;
  save: string;
} {
  const save = fingerprint(method, url, params, body);
  const open = unanswered.get(save);
  if (open && now - open.since < UNANSWERED_FOR_MS) return { key: open.key, save };
  const key = newKey();
  unanswered.set(save, { key, since: now });
  return { key, save };
}

/**
 * How the attempt ended: `status` 0 for no answer. Without an answer, on a server error, or on
 * the 409 that says the first attempt still runs (it carries Retry-After), the key stays for the
 * retry; any other answer settles the save.
 */
export function saveAnswered(save: string, status: number, retryAfter: string | null | undefined): void {
  const unsettled = status === 0 || status >= 500 || (status === 409 && !!retryAfter);
  if (!unsettled) unanswered.delete(save);
}

/** Forgets every unanswered save (sign-out, tests). */
export function forgetSaves(): void {
  unanswered.clear();
}

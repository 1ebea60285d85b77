// Unsaved form values kept in this browser, so a form survives an idle sign-out (or a closed
// tab) and is offered back when its person opens it again. One entry per person and form
// (`request:F2:new`, `participant:12`), with the time it was written; secrets are never kept,
// and an entry older than a week is dropped when read. Pure over localStorage: tested in
// formDrafts.test.ts.

const PREFIX = 'draft:';
/** A draft nobody came back to for this long is forgotten. */
export const DRAFT_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

export interface StoredDraft<T> {
  /** When it was written (ms since the epoch). */
  savedAt: number;
  values: T;
}

const keyOf = (user: string, form: string) => `${PREFIX}${user.trim().toLowerCase()}:${form}`;
const SECRET = /password|token|secret|code$/i;

/** The values without any field that could hold a secret (a password, a token, a one-time code). */
export function withoutSecrets<T>(values: T): T {
  if (Array.isArray(values)) return values.map(withoutSecrets) as T;
  if (!values || typeof values !== 'object') return values;
  return Object.fromEntries(Object.entries(values).filter(([k]) => !SECRET.test(k)).map(([k, v]) => [k, withoutSecrets(v)])) as T;
}

export function saveDraft<T>(user: string, form: string, values: T, now = Date.now()): void {
  try {
    localStorage.setItem(keyOf(user, form), JSON.stringify({ savedAt: now, values: withoutSecrets(values) }));
  } catch {
    // A full or blocked storage only loses the safety net, never the form.
  }
}

export function readDraft<T>(user: string, form: string, now = Date.now()): StoredDraft<T> | null {
  const key = keyOf(user, form);
  try {
    const raw = localStorage.getItem(key);
    if (!raw) return null;
    const draft = JSON.parse(raw) as StoredDraft<T>;
    if (typeof draft?.savedAt === 'number' && draft.values !== undefined && now - draft.savedAt <= DRAFT_MAX_AGE_MS) return draft;
  } catch {
    // Unreadable: dropped below.
  }
  localStorage.removeItem(key);
  return null;
}

export function clearDraft(user: string, form: string): void {
  localStorage.removeItem(keyOf(user, form));
}

/** Every kept draft, of every person (a deliberate sign-out leaves nothing behind). */
export function clearAllDrafts(): void {
  for (let i = localStorage.length - 1; i >= 0; i--) {
    const key = localStorage.key(i);
    if (key?.startsWith(PREFIX)) localStorage.removeItem(key);
  }
}

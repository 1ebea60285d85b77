// Unsaved form values kept in this browser, so a form survives an idle sign-out (or a closed
// tab) and is offered back when its person opens it again. One entry per person and form
// (`request:F2:new`, `participant:12`), with the time it was written. What a state office's IT
// can accept (docs/decisions-identity.md, "Drafts kept in the browser"): no secret and no
// file's contents are ever kept; an entry older than a week is dropped; a deliberate sign-out
// removes every entry, a save removes its form's; and a sign-in removes every other person's
// entries, so the next person on a shared computer never sees, nor keeps, the last one's.
// Pure over localStorage: tested in formDrafts.test.ts.

const PREFIX = 'draft:';
/**
 * A draft nobody came back to for this long is forgotten: a week covers a long weekend or a few
 * days away from an unfinished request, and no longer is its unsent text left on the computer.
 */
export const DRAFT_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

export interface StoredDraft<T> {
  /** When it was written (ms since the epoch). */
  savedAt: number;
  values: T;
}

const personOf = (user: string) => `${PREFIX}${user.trim().toLowerCase()}:`;
const keyOf = (user: string, form: string) => `${personOf(user)}${form}`;
const SECRET = /password|token|secret|code$/i;

/** A file's bytes, in any of the shapes a form could hold them. */
const isFileContents = (v: unknown) =>
  (typeof Blob !== 'undefined' && v instanceof Blob) || v instanceof ArrayBuffer || ArrayBuffer.isView(v) || (typeof v === 'string' && /^data:[\w.+-]+\/[\w.+-]+[;,]/.test(v));

/**
 * The values as they may be kept: without any field that could hold a secret (a password, a
 * token, a one-time code) and without any file's contents (a receipt is uploaded at once and
 * the form holds its id; should a form ever hold the file itself, it is not written here).
 */
export function storable<T>(values: T): T {
  if (Array.isArray(values)) return values.filter((v) => !isFileContents(v)).map(storable) as T;
  if (!values || typeof values !== 'object') return values;
  return Object.fromEntries(
    Object.entries(values)
      .filter(([k, v]) => !SECRET.test(k) && !isFileContents(v))
      .map(([k, v]) => [k, storable(v)]),
  ) as T;
}

export function saveDraft<T>(user: string, form: string, values: T, now = Date.now()): void {
  try {
    localStorage.setItem(keyOf(user, form), JSON.stringify({ savedAt: now, values: storable(values) }));
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

/**
 * At a sign-in: every other person's drafts go unread (one left by an idle sign-out on a shared
 * computer is not kept for the next person to find), and the signed-in person's own ones older
 * than a week go too, whether or not their forms are opened again.
 */
export function keepOnlyDraftsOf(user: string, now = Date.now()): void {
  const mine = personOf(user);
  for (let i = localStorage.length - 1; i >= 0; i--) {
    const key = localStorage.key(i);
    if (!key?.startsWith(PREFIX)) continue;
    if (key.startsWith(mine)) readDraft(user, key.slice(mine.length), now);
    else localStorage.removeItem(key);
  }
}

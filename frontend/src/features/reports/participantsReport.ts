import { PARTICIPANTS_REPORT_COLUMNS_KEY } from '../../api/storage';
import type { ParticipantEmail } from './api';

// The participants report's column choice (kept in local storage under a fixed key, cleared on
// logout with the tokens) and its "E-mail these participants" helpers. Pure but for the storage
// pair: tested in participantsReport.test.ts.

/** Shown until the user picks: what fits a screen; every other column is one tick away. */
export const DEFAULT_PARTICIPANT_COLUMNS = ['fullName', 'email', 'phone', 'status', 'roleCode', 'mentorPrograms', 'updatedAt'] as const;

/** The stored choice, keeping only columns the report has (order kept, repeats dropped); null: none usable. */
export function parseColumnChoice(raw: string | null, known: readonly string[]): string[] | null {
  if (!raw) return null;
  const keys = [...new Set(raw.split(',').map((k) => k.trim()))].filter((k) => known.includes(k));
  return keys.length ? keys : null;
}

/** A report's stored column choice under `storageKey`, or its `defaults` (those it has). */
export function loadColumnChoice(known: readonly string[], storageKey = PARTICIPANTS_REPORT_COLUMNS_KEY, defaults: readonly string[] = DEFAULT_PARTICIPANT_COLUMNS): string[] {
  const stored = parseColumnChoice(localStorage.getItem(storageKey), known);
  return stored ?? defaults.filter((k) => known.includes(k));
}

export function saveColumnChoice(keys: readonly string[], storageKey = PARTICIPANTS_REPORT_COLUMNS_KEY): void {
  localStorage.setItem(storageKey, keys.join(','));
}

/** Ticking a column adds it in the report's own column order; the last one cannot be removed. */
export function toggleColumn(chosen: readonly string[], key: string, order: readonly string[]): string[] {
  if (chosen.includes(key)) return chosen.length > 1 ? chosen.filter((k) => k !== key) : [...chosen];
  const next = new Set([...chosen, key]);
  return order.filter((k) => next.has(k));
}

/** Longest mailto: link mail clients and browsers reliably accept. */
export const MAILTO_LIMIT = 2000;

/** One "Full Name <email>" per line: what "Copy the list" puts on the clipboard. */
export const emailListText = (people: readonly ParticipantEmail[]): string =>
  people.map((p) => `${p.fullName.replace(/[<>]/g, '')} <${p.email}>`).join('\n');

/** A mailto: link with every address in Bcc (nobody sees the others), or null when too long. */
export function mailtoBcc(people: readonly ParticipantEmail[]): string | null {
  if (people.length === 0) return null;
  const link = `mailto:?bcc=${people.map((p) => encodeURIComponent(p.email)).join(',')}`;
  return link.length <= MAILTO_LIMIT ? link : null;
}

import { formatDate } from '../../../components/dates';
import type { OutOfOffice, PersonRef } from './api';

// Out of office in words, and the stand-in picker's choices (outOfOffice.test.ts).

/** "Ann Lee (ann@example.org)": two people may share a name. */
export const personLabel = (p: PersonRef): string => `${p.fullName} (${p.email})`;

/**
 * The picker's choices: the people found, with the one chosen kept first even when the search
 * no longer finds them (a picker shows only what its list holds), each once; never `exclude`
 * (the absent person herself, whom the server would refuse).
 */
export function candidateOptions(found: PersonRef[] | undefined, chosen: PersonRef | null, exclude?: number): { value: string; label: string }[] {
  const people = [...(chosen ? [chosen] : []), ...(found ?? [])];
  const seen = new Set<number>();
  return people
    .filter((p) => p.id !== exclude && !seen.has(p.id) && seen.add(p.id))
    .map((p) => ({ value: String(p.id), label: personLabel(p) }));
}

/** The window as a sentence, said of `who` ("You are", "Ann Lee is"). */
export function windowWords(ooo: OutOfOffice, who: { subject: string; verb: 'are' | 'is'; object: string }): string {
  const when = ooo.from === ooo.to ? `on ${formatDate(ooo.from)}` : `from ${formatDate(ooo.from)} to ${formatDate(ooo.to)}`;
  return `${who.subject} ${who.verb} away ${when}; ${ooo.standIn.fullName} stands in for ${who.object}.`;
}

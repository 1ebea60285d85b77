import { requestRef } from '../../lib/labels';
// Where an audit entry's record has its page, and record kinds for the filter. The entry's
// words (its record, what happened, each change) come from the server, as the files do.
// Pure, tested in words.test.ts.

/** `firstName` → "First name", `fiscalYearId` → "Fiscal year", `languageIds` → "Languages". */
export function fieldLabel(name: string): string {
  const bare = name.replace(/Ids$/, 's').replace(/(.)Id$/, '$1');
  const words = bare
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** What these words read of an entry (the wire's `before`/`after` are any objects). */
export interface EntryFacts {
  entityType: string;
  entityId?: number | null;
  formType?: string | null;
  /** A participation's participant, a budget line's year: given while the record exists. */
  participantId?: number | null;
  fiscalYearId?: number | null;
  before?: unknown;
  after?: unknown;
}

const fieldsOf = (v: unknown): Record<string, unknown> | null =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

/** "payment_request" → "Payment request", "budget-line" → "Budget line". */
export const entityLabel = (type: string): string => fieldLabel(type);

export interface RecordRef {
  label: string;
  /** The record's own page, where it has one. */
  to?: string;
}

/** A number an entry names in its fields (before or after), if any. */
function named(entry: Pick<EntryFacts, 'before' | 'after'>, field: string): number | undefined {
  for (const side of [entry.after, entry.before]) {
    const v = fieldsOf(side)?.[field];
    if (typeof v === 'number') return v;
  }
  return undefined;
}

/** The record an entry names, and the page that shows it. */
export function recordOf(entry: EntryFacts): RecordRef {
  const id = entry.entityId ?? undefined;
  const label = `${entityLabel(entry.entityType)}${id !== undefined ? ` #${id}` : ''}`;
  if (id === undefined) return { label };
  switch (entry.entityType) {
    case 'participant':
      return { label, to: `/participant/${id}/details` };
    case 'participation': {
      const participant = entry.participantId ?? named(entry, 'participantId');
      return participant ? { label, to: `/participant/${participant}/details` } : { label };
    }
    case 'payment_request':
      return entry.formType ? { label: `${entityLabel(entry.entityType)} ${requestRef(entry.formType, id)}`, to: `/payment-request/${entry.formType}/${id}/details` } : { label };
    case 'budget-line': {
      const year = entry.fiscalYearId ?? named(entry, 'fiscalYearId');
      return { label, to: year ? `/budget/${year}/details` : '/budget/list' };
    }
    case 'vendor-payment':
      return { label, to: `/reports/vendor-payment/${id}/details` };
    case 'user':
      return { label, to: '/settings/users' };
    case 'role':
      return { label, to: '/settings/roles' };
    default:
      return { label };
  }
}

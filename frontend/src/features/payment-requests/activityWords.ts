import { statusLabel } from './StatusBadge';

// The activity log's actions in words a clerk reads (the server records stable codes).
const WORDS: Record<string, string> = {
  created: 'Created',
  edited: 'Edited',
  deleted: 'Deleted',
  submitted: 'Submitted',
  'moved-to-draft': 'Moved back to draft',
  'sent-for-revision': 'Sent back for revision',
  approved: 'Approved',
  'step-approved': 'Approval step taken',
  'approval-reminded': 'Approvers reminded (the step waits too long)',
  'approval-escalated': 'Escalated to the Administrators (the step waits too long)',
  'moved-back-to-submitted': 'Approval undone (back to submitted)',
  'moved-to-ready-for-processing': 'Released for processing',
  processed: 'Processed (vendor payment report)',
  'file-deleted': 'Receipt removed',
};

/** `sent-for-revision` -> `Sent back for revision`; unknown codes become words too. */
export function actionWords(action: string): string {
  if (WORDS[action]) return WORDS[action]!;
  const words = action.replace(/[-_]/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** "Submitted → Revision requested", or just the status reached. */
export function statusChange(from?: string | null, to?: string | null): string {
  if (from && to && from !== to) return `${statusLabel(from)} → ${statusLabel(to)}`;
  return to ? statusLabel(to) : '';
}

/** The newest "sent back for revision" entry: its reason, who and when. */
export function revisionReason<T extends { action: string; comment?: string | null }>(log: T[] | undefined): T | undefined {
  return log?.find((e) => e.action === 'sent-for-revision');
}

/** The newest approval (who approved the request as it stands, and when). */
export function lastApproval<T extends { action: string }>(log: T[] | undefined): T | undefined {
  return log?.find((e) => e.action === 'approved');
}

import { describe, expect, it } from 'vitest';
import { actionWords, lastApproval, revisionReason, statusChange } from './activityWords';

describe('activity words', () => {
  it('says every action in words', () => {
    expect(actionWords('sent-for-revision')).toBe('Sent back for revision');
    expect(actionWords('moved-to-ready-for-processing')).toBe('Released for processing');
    expect(actionWords('someNewThing')).toBe('Some new thing');
    expect(statusChange('Submitted', 'RevisionRequested')).toBe('Submitted → Revision requested');
    expect(statusChange('Draft', 'Draft')).toBe('Draft');
  });

  it('finds the newest reason and approval (the log is newest first)', () => {
    const log = [
      { action: 'submitted', comment: null },
      { action: 'sent-for-revision', comment: 'Attach the receipt' },
      { action: 'approved', comment: null },
      { action: 'sent-for-revision', comment: 'Older reason' },
    ];
    expect(revisionReason(log)?.comment).toBe('Attach the receipt');
    expect(lastApproval(log)).toBe(log[2]);
    expect(revisionReason([])).toBeUndefined();
  });
});

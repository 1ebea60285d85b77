import { beforeEach, describe, expect, it } from 'vitest';
import { clearAllDrafts, clearDraft, DRAFT_MAX_AGE_MS, keepOnlyDraftsOf, readDraft, saveDraft, storable } from './formDrafts';

describe('form drafts', () => {
  beforeEach(() => localStorage.clear());

  it('keep a draft per person and form, until cleared', () => {
    saveDraft('Ann@Example.org', 'request:F2:new', { description: 'Books' }, 1000);
    expect(readDraft('ann@example.org', 'request:F2:new', 2000)).toEqual({ savedAt: 1000, values: { description: 'Books' } });
    expect(readDraft('bob@example.org', 'request:F2:new', 2000)).toBeNull();
    expect(readDraft('ann@example.org', 'request:F3:new', 2000)).toBeNull();
    clearDraft('ann@example.org', 'request:F2:new');
    expect(readDraft('ann@example.org', 'request:F2:new', 2000)).toBeNull();
  });

  it('never keep a secret', () => {
    expect(storable({ email: 'a@b.org', password: 'x', nested: [{ refreshToken: 't', name: 'n' }], totpCode: '1' })).toEqual({
      email: 'a@b.org',
      nested: [{ name: 'n' }],
    });
    saveDraft('ann@example.org', 'participant:new', { firstName: 'Ann', password: 'hunter2' });
    expect(localStorage.getItem('draft:ann@example.org:participant:new')).toBe('{"savedAt":' + readDraft('ann@example.org', 'participant:new')!.savedAt + ',"values":{"firstName":"Ann"}}');
  });

  it("never keep a file's contents: a receipt is kept as its id only", () => {
    const values = {
      description: 'data: as typed stays',
      details: { receiptFileIds: ['f-1'], scan: new Blob(['%PDF-1.7']), bytes: new Uint8Array([1, 2]), photo: 'data:image/png;base64,iVBOR' },
      files: [new Blob(['x']), 'f-2'],
    };
    expect(storable(values)).toEqual({ description: 'data: as typed stays', details: { receiptFileIds: ['f-1'] }, files: ['f-2'] });
    saveDraft('ann@example.org', 'request:F2:new', values);
    expect(localStorage.getItem('draft:ann@example.org:request:F2:new')).not.toMatch(/PDF|iVBOR|scan|bytes/);
  });

  it('keep a draft for a week to the millisecond, then forget it', () => {
    saveDraft('ann@example.org', 'participant:4', { firstName: 'Ann' }, 0);
    expect(readDraft('ann@example.org', 'participant:4', DRAFT_MAX_AGE_MS)?.values).toEqual({ firstName: 'Ann' });
    expect(readDraft('ann@example.org', 'participant:4', DRAFT_MAX_AGE_MS + 1)).toBeNull();
    expect(localStorage.length).toBe(0);
    localStorage.setItem('draft:ann@example.org:participant:5', '{not json');
    expect(readDraft('ann@example.org', 'participant:5')).toBeNull();
    expect(localStorage.length).toBe(0);
  });

  it('all go at a deliberate sign-out; other keys stay', () => {
    saveDraft('ann@example.org', 'participant:new', { firstName: 'Ann' });
    saveDraft('bob@example.org', 'request:F5:9', { description: 'x' });
    localStorage.setItem('lastActivity', '1');
    clearAllDrafts();
    expect(Array.from({ length: localStorage.length }, (_, i) => localStorage.key(i))).toEqual(['lastActivity']);
  });

  it("another person signing in on the same browser neither sees nor keeps the last one's drafts", () => {
    // Ann was signed out for being idle: her drafts stay, for her.
    saveDraft('ann@example.org', 'request:F2:new', { description: 'Books' }, 1000);
    saveDraft('ann@example.org', 'participant:4', { firstName: 'Ann' }, 1000);
    localStorage.setItem('lastActivity', '1');
    expect(readDraft('bob@example.org', 'request:F2:new', 2000)).toBeNull();
    keepOnlyDraftsOf('Bob@Example.org', 2000);
    expect(Array.from({ length: localStorage.length }, (_, i) => localStorage.key(i))).toEqual(['lastActivity']);
    expect(readDraft('ann@example.org', 'request:F2:new', 2000)).toBeNull();
  });

  it("a person's own sign-in keeps her recent drafts and drops those older than a week", () => {
    saveDraft('ann@example.org', 'request:F2:new', { description: 'Books' }, 0);
    saveDraft('ann@example.org', 'participant:4', { firstName: 'Ann' }, DRAFT_MAX_AGE_MS);
    keepOnlyDraftsOf('ann@example.org', DRAFT_MAX_AGE_MS + 1);
    expect(localStorage.length).toBe(1);
    expect(readDraft('ann@example.org', 'participant:4', DRAFT_MAX_AGE_MS + 1)?.values).toEqual({ firstName: 'Ann' });
  });
});

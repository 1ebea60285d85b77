import { beforeEach, describe, expect, it } from 'vitest';
import { clearAllDrafts, clearDraft, DRAFT_MAX_AGE_MS, readDraft, saveDraft, withoutSecrets } from './formDrafts';

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
    expect(withoutSecrets({ email: 'a@b.org', password: 'x', nested: [{ refreshToken: 't', name: 'n' }], totpCode: '1' })).toEqual({
      email: 'a@b.org',
      nested: [{ name: 'n' }],
    });
    saveDraft('ann@example.org', 'participant:new', { firstName: 'Ann', password: 'hunter2' });
    expect(localStorage.getItem('draft:ann@example.org:participant:new')).toBe('{"savedAt":' + readDraft('ann@example.org', 'participant:new')!.savedAt + ',"values":{"firstName":"Ann"}}');
  });

  it('forget a draft older than a week, or one that cannot be read', () => {
    saveDraft('ann@example.org', 'participant:4', { firstName: 'Ann' }, 0);
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
});

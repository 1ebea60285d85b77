import { describe, expect, it } from 'vitest';
import { candidateOptions, personLabel, windowWords } from './outOfOffice';

const ann = { id: 1, email: 'ann@example.org', fullName: 'Ann Lee' };
const bob = { id: 2, email: 'bob@example.org', fullName: 'Bob Ray' };
const cy = { id: 3, email: 'cy@example.org', fullName: 'Cy Dean' };

describe('out of office', () => {
  it('names a person with her e-mail', () => expect(personLabel(ann)).toBe('Ann Lee (ann@example.org)'));

  it.each([
    ['the people found', [ann, bob], null, undefined, ['1', '2']],
    ['the chosen one first, once', [ann, bob], bob, undefined, ['2', '1']],
    ['the chosen one though the search lost her', [cy], ann, undefined, ['1', '3']],
    ['never the absent person herself', [ann, bob, cy], null, 2, ['1', '3']],
    ['nothing yet', undefined, null, undefined, []],
  ])('offers %s', (_case, found, chosen, exclude, values) => {
    expect(candidateOptions(found, chosen, exclude).map((o) => o.value)).toEqual(values);
  });

  it('says the window of the caller or of someone else', () => {
    const ooo = { from: '2026-03-02', to: '2026-03-06', standIn: bob };
    expect(windowWords(ooo, { subject: 'You', verb: 'are', object: 'you' })).toBe('You are away from Mar 2, 2026 to Mar 6, 2026; Bob Ray stands in for you.');
    expect(windowWords({ ...ooo, to: ooo.from }, { subject: 'Ann Lee', verb: 'is', object: 'them' })).toBe('Ann Lee is away on Mar 2, 2026; Bob Ray stands in for them.');
  });
});

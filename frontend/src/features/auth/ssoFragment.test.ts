import { describe, expect, it } from 'vitest';
import { readSsoFragment } from './LoginPage';

describe('the fragment the agency sign-in leaves', () => {
  it('reads the code and the page to open', () => {
    expect(readSsoFragment('#sso=abc&next=%2Fbudget%2Flist%3Fyear%3D2')).toEqual({ code: 'abc', next: '/budget/list?year=2', error: undefined });
  });
  it('reads the refusal in words', () => {
    expect(readSsoFragment('#ssoError=None+of+your+agency+groups')).toEqual({ code: undefined, next: '/', error: 'None of your agency groups' });
  });
  it('opens only pages of this site', () => {
    for (const next of ['//evil.example', 'https://evil.example/', '/\\evil.example']) {
      expect(readSsoFragment(`#sso=abc&next=${encodeURIComponent(next)}`).next).toBe('/');
    }
    expect(readSsoFragment('').code).toBeUndefined();
  });
});

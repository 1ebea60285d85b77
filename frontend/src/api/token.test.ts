import { describe, expect, it } from 'vitest';
import { fakeJwt } from '../test/helpers';
import { isTokenExpired, tokenExpiry } from './token';

describe('token expiry (expired 60 s before exp)', () => {
  const now = Date.UTC(2025, 0, 1, 12, 0, 0);

  it('reads exp from the payload', () => {
    expect(tokenExpiry(fakeJwt(900, now))).toBe(now / 1000 + 900);
  });

  it('is fresh while more than 60 s remain', () => {
    expect(isTokenExpired(fakeJwt(61, now), now)).toBe(false);
    expect(isTokenExpired(fakeJwt(900, now), now)).toBe(false);
  });

  it('counts as expired within the last 60 s and after exp', () => {
    expect(isTokenExpired(fakeJwt(60, now), now)).toBe(true);
    expect(isTokenExpired(fakeJwt(30, now), now)).toBe(true);
    expect(isTokenExpired(fakeJwt(-5, now), now)).toBe(true);
  });

  it('treats a missing or unreadable token as expired', () => {
    expect(isTokenExpired(null, now)).toBe(true);
    expect(isTokenExpired('not-a-jwt', now)).toBe(true);
    expect(isTokenExpired('a.!!!.c', now)).toBe(true);
  });
});

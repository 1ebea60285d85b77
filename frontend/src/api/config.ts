/**
 * The API lives at the same origin, version 1 (`/api/v1`). The origin prefix
 * keeps URLs absolute, which non-browser fetch implementations (unit tests) need.
 */
export const API_BASE_URL = `${globalThis.location?.origin ?? 'http://localhost'}/api/v1`;

/** Calls that carry no bearer token: no refresh, no logout on 401. */
const ANONYMOUS_PATHS = [
  '/identity/login',
  '/identity/login/mfa',
  '/identity/login/passkey/start',
  '/identity/login/passkey/finish',
  '/identity/login/enroll/totp',
  '/identity/login/enroll/totp/confirm',
  '/identity/refresh',
  '/identity/reset-token/validate',
  '/identity/user/set-password',
  '/identity/user/reset-password',
  '/identity/sso',
  '/identity/sso/exchange',
  '/health',
];

export function isAnonymousPath(url: string): boolean {
  const path = url.split('?')[0];
  return ANONYMOUS_PATHS.includes(path.startsWith('/') ? path : `/${path}`);
}

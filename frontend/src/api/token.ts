/** An access token counts as expired 60 seconds before its expiry time. */
export const TOKEN_EXPIRY_MARGIN_SECONDS = 60;

/**
 * Reads `exp` (seconds since epoch) from a JWT payload. No signature check:
 * the client only needs to know when to refresh; the server verifies.
 */
export function tokenExpiry(token: string): number | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const json = atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '='));
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' ? exp : null;
  } catch {
    return null;
  }
}

/** True when the token is unreadable, expired, or expires within the margin. */
export function isTokenExpired(token: string | null, nowMs = Date.now()): boolean {
  if (!token) return true;
  const exp = tokenExpiry(token);
  if (exp === null) return true;
  return nowMs / 1000 >= exp - TOKEN_EXPIRY_MARGIN_SECONDS;
}

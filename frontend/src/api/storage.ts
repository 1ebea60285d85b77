// Keys of the values kept in localStorage: the tokens, the participants report's columns
// and the last activity.
// Tokens live outside the redux-persist blob so the base query can read them
// synchronously and every tab sees the same pair.
export const ACCESS_TOKEN_KEY = 'accessToken';
export const REFRESH_TOKEN_KEY = 'refreshToken';
export const PARTICIPANTS_REPORT_COLUMNS_KEY = 'participantsReportColumns';
export const REIMBURSEMENTS_REPORT_COLUMNS_KEY = 'reimbursementsReportColumns';
export const LAST_ACTIVITY_KEY = 'lastActivity';

export interface Tokens {
  accessToken: string;
  refreshToken: string;
}

export const getAccessToken = (): string | null => localStorage.getItem(ACCESS_TOKEN_KEY);
export const getRefreshToken = (): string | null => localStorage.getItem(REFRESH_TOKEN_KEY);

export function storeTokens({ accessToken, refreshToken }: Tokens): void {
  localStorage.setItem(ACCESS_TOKEN_KEY, accessToken);
  localStorage.setItem(REFRESH_TOKEN_KEY, refreshToken);
}

/** Removes everything a logout clears: every stored key. */
export function clearStoredSession(): void {
  for (const key of [ACCESS_TOKEN_KEY, REFRESH_TOKEN_KEY, PARTICIPANTS_REPORT_COLUMNS_KEY, REIMBURSEMENTS_REPORT_COLUMNS_KEY]) {
    localStorage.removeItem(key);
  }
}

export function getLastActivity(): number | null {
  const value = Number(localStorage.getItem(LAST_ACTIVITY_KEY));
  return Number.isFinite(value) && value > 0 ? value : null;
}

export function recordActivity(now = Date.now()): void {
  localStorage.setItem(LAST_ACTIVITY_KEY, String(now));
}

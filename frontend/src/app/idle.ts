import { selectIsSignedIn } from '../api/authSlice';
import { logout } from '../api/session';
import { getLastActivity } from '../api/storage';
import type { AppDispatch, RootState } from './store';

/** 15 minutes idle logs out (also when a page loads after that long); activity written at most every 30 s; tabs synced every 1 s. */
export const IDLE_TIMEOUT_MS = 15 * 60 * 1000;
export const ACTIVITY_WRITE_INTERVAL_MS = 30 * 1000;
export const IDLE_SYNC_INTERVAL_MS = 1000;
/**
 * The sign-out is announced this long before it happens, with a way to stay (WCAG 2.2.1: a
 * time limit the person can extend, with at least 20 seconds to do so).
 */
export const IDLE_WARNING_MS = 2 * 60 * 1000;

/**
 * On page load (before the first render): a session whose last recorded
 * activity is older than the idle limit has ended, even if every tab was closed.
 */
export function logoutIfIdleTooLong(dispatch: AppDispatch, getState: () => RootState, now = Date.now()): void {
  const last = getLastActivity();
  if (selectIsSignedIn(getState()) && last !== null && now - last > IDLE_TIMEOUT_MS) {
    dispatch(logout('idle'));
  }
}

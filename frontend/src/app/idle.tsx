import { useEffect } from 'react';
import { useIdleTimer } from 'react-idle-timer';
import { selectIsSignedIn } from '../api/authSlice';
import { logout } from '../api/session';
import { getLastActivity, recordActivity } from '../api/storage';
import { useAppDispatch } from '../lib/hooks';
import type { AppDispatch, RootState } from './store';

/** SPEC §4/§9: 15 minutes idle logs out; activity written at most every 30 s; tabs synced every 1 s. */
export const IDLE_TIMEOUT_MS = 15 * 60 * 1000;
export const ACTIVITY_WRITE_INTERVAL_MS = 30 * 1000;
export const IDLE_SYNC_INTERVAL_MS = 1000;

/** Mounted while signed in (main layout). */
export function IdleLogout() {
  const dispatch = useAppDispatch();
  useIdleTimer({
    name: 'mentorpay-idle',
    timeout: IDLE_TIMEOUT_MS,
    crossTab: true,
    syncTimers: IDLE_SYNC_INTERVAL_MS,
    throttle: ACTIVITY_WRITE_INTERVAL_MS,
    onAction: () => recordActivity(),
    onIdle: () => dispatch(logout('idle')),
  });
  useEffect(() => recordActivity(), []);
  return null;
}

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

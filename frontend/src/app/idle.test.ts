import { configureStore } from '@reduxjs/toolkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { authReducer, loggedIn } from '../api/authSlice';
import { closeChannel } from '../api/channel';
import { admin } from '../test/helpers';
import { IDLE_TIMEOUT_MS, logoutIfIdleTooLong } from './idle';
import type { AppDispatch, RootState } from './store';

describe('idle check on page load', () => {
  const now = Date.UTC(2025, 0, 1, 9, 0, 0);
  let store: ReturnType<typeof makeStore>;
  const makeStore = () => {
    const s = configureStore({ reducer: { auth: authReducer } });
    s.dispatch(loggedIn(admin));
    return s;
  };
  const check = () =>
    logoutIfIdleTooLong(store.dispatch as AppDispatch, store.getState as unknown as () => RootState, now);

  beforeEach(() => {
    localStorage.clear();
    localStorage.setItem('accessToken', 'a');
    localStorage.setItem('refreshToken', 'r');
    store = makeStore();
  });
  afterEach(() => closeChannel());

  it('logs out when the last activity is older than 15 minutes', () => {
    localStorage.setItem('lastActivity', String(now - IDLE_TIMEOUT_MS - 60_000));
    check();
    expect(store.getState().auth.userDetails).toBeNull();
    expect(store.getState().auth.signOutReason).toBe('idle');
    expect(localStorage.getItem('refreshToken')).toBeNull();
  });

  it('keeps a session that was active recently', () => {
    localStorage.setItem('lastActivity', String(now - 14 * 60_000));
    check();
    expect(store.getState().auth.userDetails).toEqual(admin);
    expect(localStorage.getItem('refreshToken')).toBe('r');
  });
});

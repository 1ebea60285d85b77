import { configureStore } from '@reduxjs/toolkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { admin, otherTab } from '../test/helpers';
import {
  authReducer,
  initialAuthState,
  loggedIn,
  loggedOut,
  refreshStateChanged,
  selectIsSignedIn,
  selectPermissions,
  signOutMessageSet,
  signOutReasonCleared,
} from './authSlice';
import { CHANNEL_NAME, closeChannel } from './channel';
import { logout, signedIn } from './session';

describe('auth slice reducers', () => {
  it('starts signed out and idle', () => {
    expect(authReducer(undefined, { type: 'init' })).toEqual(initialAuthState);
  });

  it('loggedIn stores the user details and clears the last sign-out reason', () => {
    const state = authReducer({ ...initialAuthState, signOutReason: 'idle', refreshState: 'failed' }, loggedIn(admin));
    expect(state).toEqual({ userDetails: admin, refreshState: 'idle', signOutReason: null });
    expect(selectIsSignedIn({ auth: state })).toBe(true);
    expect(selectPermissions({ auth: state })).toEqual(admin.permissions);
  });

  it('tracks the refresh state', () => {
    let state = authReducer(initialAuthState, refreshStateChanged('inProcess'));
    expect(state.refreshState).toBe('inProcess');
    state = authReducer(state, refreshStateChanged('success'));
    expect(state.refreshState).toBe('success');
    state = authReducer(state, refreshStateChanged('failed'));
    expect(state.refreshState).toBe('failed');
  });

  it('a server sign-out message lasts until the login page has shown it or the next sign-in', () => {
    const out = authReducer(authReducer(authReducer(initialAuthState, loggedIn(admin)), signOutMessageSet('Blocked.')), loggedOut('expired'));
    expect(out.signOutMessage).toBe('Blocked.');
    expect(authReducer(out, signOutReasonCleared()).signOutMessage).toBeUndefined();
    expect(authReducer(out, loggedIn(admin)).signOutMessage).toBeUndefined();
  });

  it('loggedOut clears the user and remembers why', () => {
    const state = authReducer(authReducer(initialAuthState, loggedIn(admin)), loggedOut('idle'));
    expect(state.userDetails).toBeNull();
    expect(state.signOutReason).toBe('idle');
    expect(selectIsSignedIn({ auth: state })).toBe(false);
    expect(selectPermissions({ auth: state })).toEqual([]);
    expect(authReducer(state, signOutReasonCleared()).signOutReason).toBeNull();
  });
});

describe('sign-in and logout thunks', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => closeChannel());

  it('signedIn stores both tokens, the activity time and the user', () => {
    const store = configureStore({ reducer: { auth: authReducer } });
    store.dispatch(signedIn({ accessToken: 'a1', refreshToken: 'r1', userDetails: admin }));
    expect(localStorage.getItem('accessToken')).toBe('a1');
    expect(localStorage.getItem('refreshToken')).toBe('r1');
    expect(Number(localStorage.getItem('lastActivity'))).toBeGreaterThan(0);
    expect(store.getState().auth.userDetails).toEqual(admin);
  });

  it('logout clears the stored keys and the user, and tells the other tabs', async () => {
    const tab = otherTab(CHANNEL_NAME);
    const store = configureStore({ reducer: { auth: authReducer } });
    store.dispatch(signedIn({ accessToken: 'a1', refreshToken: 'r1', userDetails: admin }));
    localStorage.setItem('participantsReportColumns', '["fullName"]');

    store.dispatch(logout('user'));

    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(localStorage.getItem('refreshToken')).toBeNull();
    expect(localStorage.getItem('participantsReportColumns')).toBeNull();
    expect(store.getState().auth.userDetails).toBeNull();
    expect(store.getState().auth.signOutReason).toBe('user');
    await expect.poll(() => tab.received).toEqual([expect.objectContaining({ type: 'logout', reason: 'user' })]);
    tab.channel.close();
  });
});

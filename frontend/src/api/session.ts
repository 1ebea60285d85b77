import { forgetSaves } from './idempotency';
import { clearAllDrafts, keepOnlyDraftsOf } from '../components/formDrafts';
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { loggedIn, loggedOut, refreshStateChanged, signOutMessageSet, type SignOutReason, type UserDetails } from './authSlice';
import { broadcast, subscribe } from './channel';
import { API_BASE_URL } from './config';
import {
  clearStoredSession,
  getAccessToken,
  getRefreshToken,
  recordActivity,
  storeTokens,
  type Tokens,
} from './storage';
import { isTokenExpired } from './token';

// Session lifecycle: sign-in, logout (in every tab) and the access-token
// refresh shared by all requests of this tab and by the other open tabs.

export type SessionDispatch = ThunkDispatch<unknown, unknown, UnknownAction>;

/** How long a tab waits for another tab's announced refresh before doing its own. */
export const REMOTE_REFRESH_WAIT_MS = 10_000;
const LOCK_NAME = 'mentorpay-token-refresh';

/** Thrown when there is no session to refresh; the user has been logged out. */
export class SessionEndedError extends Error {
  constructor() {
    super('The session has ended.');
  }
}

export function signedIn(session: Tokens & { userDetails: UserDetails }) {
  return (dispatch: SessionDispatch) => {
    storeTokens(session);
    recordActivity();
    // Another person's unsaved forms, left by an idle sign-out here, are not for this one.
    keepOnlyDraftsOf(session.userDetails.email);
    dispatch(loggedIn(session.userDetails));
  };
}

/** Clears the stored session here and tells every other tab to do the same. */
export function logout(reason: SignOutReason) {
  return (dispatch: SessionDispatch) => {
    // An expired session was already refused by the server; the others end there too.
    if (reason !== 'expired') revokeOnServer(getRefreshToken());
    clearStoredSession();
    // Unsaved forms are kept through an idle sign-out, to be offered back; a deliberate
    // sign-out leaves nothing behind.
    if (reason === 'user') clearAllDrafts();
    // Another user signing in here starts with no save of this one's to retry.
    forgetSaves();
    dispatch(loggedOut(reason));
    broadcast({ type: 'logout', reason });
  };
}

/** Ends the sign-in on the server too (its refresh tokens are revoked). Fire and
 * forget: the local logout never waits for, or depends on, the answer. */
function revokeOnServer(refreshToken: string | null): void {
  if (!refreshToken || typeof fetch === 'undefined') return;
  fetch(`${API_BASE_URL}/identity/logout`, {
    method: 'POST',
    credentials: 'include',
    keepalive: true,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ refreshToken }),
  }).catch(() => undefined);
}

let inflight: Promise<string> | null = null;
let remoteRefreshSince = 0;
const remoteWaiters = new Set<(tokens: Tokens | null) => void>();

/**
 * Returns an access token that is good for at least the expiry margin,
 * refreshing first when needed. Single-flight: concurrent callers share one
 * refresh call, because refresh tokens are single use (a second use revokes
 * the whole family on the server).
 */
export function ensureFreshAccessToken(dispatch: SessionDispatch): Promise<string> {
  const current = getAccessToken();
  if (current && !isTokenExpired(current)) return Promise.resolve(current);
  inflight ??= refresh(dispatch).finally(() => {
    inflight = null;
  });
  return inflight;
}

async function refresh(dispatch: SessionDispatch): Promise<string> {
  const sinceRemote = Date.now() - remoteRefreshSince;
  if (sinceRemote < REMOTE_REFRESH_WAIT_MS) {
    // Another tab is spending the shared refresh token: wait for its result.
    const tokens = await waitForRemoteRefresh(REMOTE_REFRESH_WAIT_MS - sinceRemote);
    if (tokens) return tokens.accessToken;
  }
  return withCrossTabLock(() => refreshHere(dispatch));
}

/** Web Locks serialise refreshes of tabs that started at the same instant. */
function withCrossTabLock<T>(task: () => Promise<T>): Promise<T> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  // request() resolves with the task's own result.
  return locks ? (locks.request(LOCK_NAME, task) as unknown as Promise<T>) : task();
}

async function refreshHere(dispatch: SessionDispatch): Promise<string> {
  const current = getAccessToken();
  // Another tab may have refreshed while this one waited for the lock.
  if (current && !isTokenExpired(current)) return current;
  const refreshToken = getRefreshToken();
  if (!refreshToken) {
    dispatch(logout('expired'));
    throw new SessionEndedError();
  }

  dispatch(refreshStateChanged('inProcess'));
  broadcast({ type: 'refresh-start' });
  let response: Response;
  try {
    response = await fetch(`${API_BASE_URL}/identity/refresh`, {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: current ?? '', refreshToken }),
    });
  } catch (error) {
    // No answer (network down): the refresh token was probably not spent, so
    // keep the session; this request fails and the next one tries again.
    dispatch(refreshStateChanged('failed'));
    broadcast({ type: 'refresh-done', tokens: null });
    throw error;
  }

  const body = (await response.json().catch(() => null)) as { token?: unknown; refreshToken?: unknown; detail?: unknown } | null;
  if (!response.ok || typeof body?.token !== 'string' || typeof body.refreshToken !== 'string') {
    dispatch(refreshStateChanged('failed'));
    // A 403 is a deliberate refusal with a reason the user must read (coordinator sign-in blocked).
    if (response.status === 403 && typeof body?.detail === 'string' && body.detail) dispatch(signOutMessageSet(body.detail));
    dispatch(logout('expired'));
    throw new SessionEndedError();
  }
  if (getRefreshToken() !== refreshToken) {
    // Signed out (idle, another tab) while the call was in flight: the answer must not
    // bring the session back.
    throw new SessionEndedError();
  }
  const tokens = { accessToken: body.token, refreshToken: body.refreshToken };
  storeTokens(tokens);
  dispatch(refreshStateChanged('success'));
  broadcast({ type: 'refresh-done', tokens });
  return tokens.accessToken;
}

function waitForRemoteRefresh(timeoutMs: number): Promise<Tokens | null> {
  return new Promise((resolve) => {
    const done = (tokens: Tokens | null) => {
      clearTimeout(timer);
      remoteWaiters.delete(done);
      resolve(tokens);
    };
    const timer = setTimeout(() => done(null), timeoutMs);
    remoteWaiters.add(done);
  });
}

function settleRemoteRefresh(tokens: Tokens | null): void {
  remoteRefreshSince = 0;
  [...remoteWaiters].forEach((done) => done(tokens));
}

/** Applies other tabs' session messages to this tab's store. Call once at start. */
export function startSessionSync(dispatch: SessionDispatch): () => void {
  return subscribe((message) => {
    switch (message.type) {
      case 'refresh-start':
        remoteRefreshSince = message.ts;
        dispatch(refreshStateChanged('inProcess'));
        break;
      case 'refresh-done':
        if (message.tokens) storeTokens(message.tokens);
        dispatch(refreshStateChanged(message.tokens ? 'success' : 'failed'));
        settleRemoteRefresh(message.tokens);
        break;
      case 'logout':
        // The sender already cleared the shared storage; only the state is left.
        dispatch(loggedOut(message.reason));
        settleRemoteRefresh(null);
        break;
    }
  });
}

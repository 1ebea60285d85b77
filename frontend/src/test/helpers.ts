import { configureStore } from '@reduxjs/toolkit';
import type { BaseQueryApi } from '@reduxjs/toolkit/query';
import { authReducer, loggedIn, type UserDetails } from '../api/authSlice';

export const admin: UserDetails = {
  firstName: 'Ada',
  lastName: 'Admin',
  email: 'admin@example.org',
  roles: ['Administrator'],
  permissions: ['participant:read', 'setting:viewmenu'],
};

/** An unsigned JWT whose `exp` is `secondsFromNow` away (the client never verifies). */
export function fakeJwt(secondsFromNow: number, now = Date.now()): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const iat = Math.floor(now / 1000);
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ sub: '1', iat, exp: iat + secondsFromNow, email: 'a@b.c' })}.sig`;
}

export function signedInStore() {
  const store = configureStore({ reducer: { auth: authReducer } });
  store.dispatch(loggedIn(admin));
  return store;
}

export function baseQueryApi(store: ReturnType<typeof signedInStore>, signal = new AbortController().signal): BaseQueryApi {
  return {
    signal,
    abort: () => undefined,
    dispatch: store.dispatch,
    getState: store.getState,
    extra: undefined,
    endpoint: 'test',
    type: 'query',
  };
}

export const json = (status: number, body: unknown, statusText = '') =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    statusText,
    headers: { 'Content-Type': 'application/json' },
  });

export const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Collects the session messages another tab would receive. */
export function otherTab(name: string) {
  const channel = new BroadcastChannel(name);
  const received: { type: string; [key: string]: unknown }[] = [];
  channel.onmessage = (event: MessageEvent) => received.push(event.data);
  return { channel, received, post: (message: object) => channel.postMessage(message) };
}

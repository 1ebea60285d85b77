import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readDraft, saveDraft } from '../components/formDrafts';
import { admin, baseQueryApi, delay, fakeJwt, json, otherTab, signedInStore } from '../test/helpers';
import { baseQuery } from './baseQuery';
import { CHANNEL_NAME, closeChannel, MESSAGE_TTL_MS } from './channel';
import { signedIn, startSessionSync } from './session';

/** A fake server: counts refresh calls and records the bearer of every other call. */
function fakeServer(refresh: () => Response | Promise<Response>) {
  const server = { refreshCalls: 0, refreshBodies: [] as unknown[], bearers: [] as (string | null)[] };
  vi.stubGlobal('fetch', async (input: Request | string, init?: RequestInit) => {
    const request = typeof input === 'string' ? new Request(input, init) : input;
    if (request.url.endsWith('/api/v1/identity/refresh')) {
      server.refreshCalls += 1;
      server.refreshBodies.push(await request.json());
      await delay(20); // long enough for the whole burst to queue up behind it
      return refresh();
    }
    server.bearers.push(request.headers.get('Authorization'));
    return json(200, { ok: true });
  });
  return server;
}

describe('token refresh before requests', () => {
  let store: ReturnType<typeof signedInStore>;
  let stopSync: () => void;
  let tab: ReturnType<typeof otherTab>;
  const fresh = fakeJwt(900);

  beforeEach(() => {
    localStorage.clear();
    store = signedInStore();
    stopSync = startSessionSync(store.dispatch);
    tab = otherTab(CHANNEL_NAME);
  });
  afterEach(() => {
    stopSync();
    tab.channel.close();
    closeChannel();
  });

  const call = () => baseQuery('/identity/roles', baseQueryApi(store), {});

  it('uses a fresh token as is, without refreshing', async () => {
    const token = fakeJwt(900);
    localStorage.setItem('accessToken', token);
    localStorage.setItem('refreshToken', 'r1');
    const server = fakeServer(() => json(500, {}));
    await call();
    expect(server.refreshCalls).toBe(0);
    expect(server.bearers).toEqual([`Bearer ${token}`]);
  });

  it('a burst of requests with an expiring token makes exactly one refresh call', async () => {
    const old = fakeJwt(59); // inside the 60 s margin
    localStorage.setItem('accessToken', old);
    localStorage.setItem('refreshToken', 'r1');
    const server = fakeServer(() => json(200, { token: fresh, refreshToken: 'r2' }));

    const results = await Promise.all(Array.from({ length: 8 }, call));

    expect(server.refreshCalls).toBe(1);
    expect(server.refreshBodies).toEqual([{ token: old, refreshToken: 'r1' }]);
    expect(results.every((result) => result.data !== undefined)).toBe(true);
    expect(server.bearers).toEqual(Array(8).fill(`Bearer ${fresh}`));
    expect(localStorage.getItem('accessToken')).toBe(fresh);
    expect(localStorage.getItem('refreshToken')).toBe('r2');
    expect(store.getState().auth.refreshState).toBe('success');
    // The other tabs learn about the refresh and get its result.
    await expect
      .poll(() => tab.received.map((m) => m.type))
      .toEqual(['refresh-start', 'refresh-done']);
    expect(tab.received[1].tokens).toEqual({ accessToken: fresh, refreshToken: 'r2' });
  });

  it('a tab that sees another tab refreshing waits for its result instead of refreshing', async () => {
    localStorage.setItem('accessToken', fakeJwt(-1));
    localStorage.setItem('refreshToken', 'r1');
    const server = fakeServer(() => json(200, { token: 'should-not-be-used', refreshToken: 'x' }));

    tab.post({ type: 'refresh-start', ts: Date.now() });
    await expect.poll(() => store.getState().auth.refreshState).toBe('inProcess');
    const pending = Promise.all([call(), call(), call()]);
    await delay(30);
    expect(server.bearers).toEqual([]); // still waiting for the other tab
    tab.post({ type: 'refresh-done', ts: Date.now(), tokens: { accessToken: fresh, refreshToken: 'r2' } });
    await pending;

    expect(server.refreshCalls).toBe(0);
    expect(server.bearers).toEqual(Array(3).fill(`Bearer ${fresh}`));
    expect(localStorage.getItem('refreshToken')).toBe('r2');
    expect(store.getState().auth.refreshState).toBe('success');
  });

  it('a refresh answered after a logout does not bring the session back', async () => {
    localStorage.setItem('accessToken', fakeJwt(59));
    localStorage.setItem('refreshToken', 'r1');
    // The user is signed out (idle, another tab) while the refresh call is in flight.
    fakeServer(() => {
      localStorage.removeItem('accessToken');
      localStorage.removeItem('refreshToken');
      return json(200, { token: fresh, refreshToken: 'r2' });
    });

    const result = await call();

    expect(result.error?.status).toBe(401);
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(localStorage.getItem('refreshToken')).toBeNull();
  });

  it('ignores cross-tab messages older than 45 s', async () => {
    localStorage.setItem('accessToken', fakeJwt(-1));
    localStorage.setItem('refreshToken', 'r1');
    const server = fakeServer(() => json(200, { token: fresh, refreshToken: 'r2' }));

    tab.post({ type: 'refresh-start', ts: Date.now() - MESSAGE_TTL_MS - 1000 });
    await delay(30);
    expect(store.getState().auth.refreshState).toBe('idle');
    await call();
    expect(server.refreshCalls).toBe(1);
  });

  it('a failed refresh logs out here and in every other tab', async () => {
    localStorage.setItem('accessToken', fakeJwt(-1));
    localStorage.setItem('refreshToken', 'r1');
    localStorage.setItem('participantsReportColumns', '[]');
    const server = fakeServer(() => json(401, { status: 401, title: 'Unauthorized', detail: 'Refresh token revoked' }));

    const results = await Promise.all([call(), call()]);

    expect(server.refreshCalls).toBe(1);
    expect(server.bearers).toEqual([]); // no request went out without a valid token
    expect(results.map((r) => r.error?.status)).toEqual([401, 401]);
    const { auth } = store.getState();
    expect(auth.userDetails).toBeNull();
    expect(auth.refreshState).toBe('failed');
    expect(auth.signOutReason).toBe('expired');
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(localStorage.getItem('refreshToken')).toBeNull();
    expect(localStorage.getItem('participantsReportColumns')).toBeNull();
    await expect.poll(() => tab.received.map((m) => m.type)).toEqual(['refresh-start', 'logout']);
  });

  it('a refresh refused with 403 keeps the server\'s reason for the login page', async () => {
    localStorage.setItem('accessToken', fakeJwt(-1));
    localStorage.setItem('refreshToken', 'r1');
    const blocked = 'Closed for fiscal year end until July 5.';
    fakeServer(() => json(403, { status: 403, title: 'Forbidden', detail: blocked }));

    await call();

    const { auth } = store.getState();
    expect(auth.userDetails).toBeNull();
    expect(auth.signOutReason).toBe('expired');
    expect(auth.signOutMessage).toBe(blocked);
  });

  it('a refresh refused with 401 leaves no server message', async () => {
    localStorage.setItem('accessToken', fakeJwt(-1));
    localStorage.setItem('refreshToken', 'r1');
    fakeServer(() => json(401, { status: 401, title: 'Unauthorized', detail: 'Refresh token revoked' }));
    await call();
    expect(store.getState().auth.signOutMessage).toBeUndefined();
  });

  it('a logout in another tab ends the session here', async () => {
    tab.post({ type: 'logout', ts: Date.now(), reason: 'idle' });
    await expect.poll(() => store.getState().auth.userDetails).toBeNull();
    expect(store.getState().auth.signOutReason).toBe('idle');
  });

  it('any 401 response logs the user out everywhere', async () => {
    localStorage.setItem('accessToken', fakeJwt(900));
    localStorage.setItem('refreshToken', 'r1');
    vi.stubGlobal('fetch', async () => json(401, { detail: 'Token revoked' }));

    const result = await call();

    expect(result.error).toMatchObject({ status: 401, title: 'Please sign in again', quiet: true });
    expect(store.getState().auth.userDetails).toBeNull();
    expect(localStorage.getItem('refreshToken')).toBeNull();
    await expect.poll(() => tab.received.map((m) => m.type)).toEqual(['logout']);
  });

  it('a 401 of an anonymous call (wrong password) does not log anybody out', async () => {
    vi.stubGlobal('fetch', async () => json(401, { detail: 'Wrong e-mail or password' }));
    await baseQuery({ url: '/identity/login', method: 'POST', body: {} }, baseQueryApi(store), {});
    expect(store.getState().auth.userDetails).not.toBeNull();
    await delay(20);
    expect(tab.received).toEqual([]);
  });

  it('without a refresh token the session has ended', async () => {
    localStorage.setItem('accessToken', fakeJwt(-1));
    const server = fakeServer(() => json(200, {}));
    const result = await call();
    expect(server.refreshCalls).toBe(0);
    expect(result.error).toMatchObject({ status: 401 });
    expect(store.getState().auth.userDetails).toBeNull();
  });
});

describe('drafts kept in the browser, at sign-in', () => {
  beforeEach(() => localStorage.clear());

  it('a sign-in drops the unsaved forms another person left here, and keeps her own', () => {
    // Ann was signed out for being idle; her forms were kept for her.
    saveDraft('ann@example.org', 'request:F2:new', { description: 'Books' });
    saveDraft(admin.email, 'participant:new', { firstName: 'Ada' });
    const store = signedInStore();
    store.dispatch(signedIn({ accessToken: fakeJwt(900), refreshToken: 'refresh', userDetails: admin }));
    expect(readDraft('ann@example.org', 'request:F2:new')).toBeNull();
    expect(readDraft(admin.email, 'participant:new')?.values).toEqual({ firstName: 'Ada' });
  });
});

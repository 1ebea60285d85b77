import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { baseQueryApi, fakeJwt, json, signedInStore } from '../test/helpers';
import { baseQuery } from './baseQuery';
import { closeChannel } from './channel';
import { forgetSaves, IDEMPOTENCY_HEADER, isKeyed } from './idempotency';

/** A fake server answering each call with the next of `answers`; records each call's key. */
function fakeServer(answers: (() => Response)[]) {
  const keys: (string | null)[] = [];
  vi.stubGlobal('fetch', async (input: Request | string, init?: RequestInit) => {
    const request = typeof input === 'string' ? new Request(input, init) : input;
    keys.push(request.headers.get(IDEMPOTENCY_HEADER));
    const answer = answers.shift();
    if (!answer) throw new Error('no more answers');
    return answer();
  });
  return keys;
}

const offline = () => {
  throw new TypeError('Failed to fetch');
};

describe('Idempotency-Key on the saves that create or move money', () => {
  let store: ReturnType<typeof signedInStore>;

  beforeEach(() => {
    localStorage.clear();
    localStorage.setItem('accessToken', fakeJwt(900));
    localStorage.setItem('refreshToken', 'r1');
    store = signedInStore();
    forgetSaves();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    closeChannel();
  });

  const save = (body: unknown, url = '/participants') =>
    baseQuery({ url, method: 'POST', body }, baseQueryApi(store), { quiet: true });

  it('a retry of a save that got no answer carries the same key; the next save a new one', async () => {
    const keys = fakeServer([
      offline,
      () => json(503, { status: 503, title: 'Service Unavailable', detail: 'busy' }),
      () => json(201, { id: 1 }),
      () => json(201, { id: 2 }),
    ]);
    const body = { firstName: 'Rita' };
    expect((await save(body)).error?.status).toBe(0);
    expect((await save(body)).error?.status).toBe(503);
    expect((await save(body)).data).toEqual({ id: 1 });
    await save(body);
    expect(keys[0]).toMatch(/^[!-~]{1,255}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).toBe(keys[0]);
    expect(keys[3]).not.toBe(keys[0]);
  });

  it('a changed form is a new save; a refused one settles its key', async () => {
    const keys = fakeServer([
      offline,
      () => json(201, { id: 1 }),
      () => json(422, { status: 422, title: 'Unprocessable Entity', detail: 'no' }),
      () => json(201, { id: 2 }),
    ]);
    await save({ firstName: 'Rita' });
    await save({ firstName: 'Rosa' });
    await save({ firstName: 'Pat' });
    await save({ firstName: 'Pat' });
    expect(new Set(keys).size).toBe(4);
  });

  it('only the money routes carry one', async () => {
    const keys = fakeServer([() => json(200, {}), () => json(201, {})]);
    await baseQuery({ url: '/participants/7/participations', method: 'POST', body: {} }, baseQueryApi(store), {});
    await save({}, '/payment-requests/F3/42/approve');
    expect(keys[0]).toBeNull();
    expect(keys[1]).not.toBeNull();
    expect(isKeyed('POST', '/payment-requests/F5')).toBe(true);
    expect(isKeyed('POST', '/payment-requests/F5/9/submit')).toBe(true);
    expect(isKeyed('POST', '/payment-requests/F5/9/submit/validate')).toBe(false);
    expect(isKeyed('POST', '/payment-requests/move-to-statuses/ready-for-processing/batch')).toBe(true);
    expect(isKeyed('POST', '/participants/import?DryRun=false')).toBe(true);
    expect(isKeyed('POST', '/reports/vendor-payments')).toBe(true);
    expect(isKeyed('GET', '/reports/vendor-payments')).toBe(false);
    expect(isKeyed('PUT', '/participants')).toBe(false);
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { baseQueryApi, json, signedInStore } from '../test/helpers';
import { baseQuery } from './baseQuery';
import { closeChannel } from './channel';
import { GENERIC_ERROR, normalizeError, REQUEST_ABORTED } from './errors';

describe('error normalisation', () => {
  it.each([
    [400, 'Bad Request'],
    [401, 'Unauthorized'],
    [403, 'Forbidden'],
    [404, 'Not Found'],
    [500, 'Internal Server Error'],
    [502, 'Bad Gateway'],
    [503, 'Service Unavailable'],
  ])('%i is %s', (status, title) => {
    const error = normalizeError({ status, data: null });
    expect(error).toMatchObject({ status, title, detail: title });
  });

  it("keeps the server's detail and field errors", () => {
    const body = { status: 400, title: 'Bad Request', detail: 'Password too short', errors: { password: ['min 12'] } };
    expect(normalizeError({ status: 400, data: body })).toMatchObject({
      title: 'Bad Request',
      detail: 'Password too short',
      errors: { password: ['min 12'] },
    });
  });

  it('any other failing status is a Generic Error with status, status text and body', () => {
    const body = { detail: 'Stale version' };
    const meta = { request: new Request('http://x/'), response: new Response(null, { status: 409, statusText: 'Conflict' }) };
    expect(normalizeError({ status: 409, data: body }, meta)).toEqual({
      status: 409,
      title: GENERIC_ERROR,
      detail: 'Stale version',
      statusText: 'Conflict',
      body,
      errors: undefined,
    });
    expect(normalizeError({ status: 418, data: 'teapot' })).toMatchObject({ status: 418, title: GENERIC_ERROR, body: 'teapot' });
  });

  it('a non-JSON error body keeps its status title', () => {
    expect(normalizeError({ status: 'PARSING_ERROR', originalStatus: 502, data: '<html>', error: 'x' })).toMatchObject({
      status: 502,
      title: 'Bad Gateway',
      body: '<html>',
    });
  });

  it('a network failure is a Generic Error', () => {
    expect(normalizeError({ status: 'FETCH_ERROR', error: 'TypeError: fetch failed' })).toMatchObject({
      status: 0,
      title: GENERIC_ERROR,
    });
  });

  it('a cancelled request is Request aborted', () => {
    expect(normalizeError({ status: 'FETCH_ERROR', error: 'AbortError' }, undefined, true).title).toBe(REQUEST_ABORTED);
  });
});

describe('base query errors', () => {
  afterEach(() => closeChannel());

  it('returns the normalised error of a failing call', async () => {
    vi.stubGlobal('fetch', async () => json(503, { detail: 'Database unavailable' }, 'Service Unavailable'));
    const result = await baseQuery('/health', baseQueryApi(signedInStore()), {});
    expect(result.error).toMatchObject({ status: 503, title: 'Service Unavailable', detail: 'Database unavailable' });
  });

  it('a cancelled request rejects with Request aborted', async () => {
    vi.stubGlobal(
      'fetch',
      (request: Request) =>
        new Promise((_resolve, reject) => {
          const abort = () => reject(new DOMException('aborted', 'AbortError'));
          if (request.signal.aborted) abort();
          request.signal.addEventListener('abort', abort);
        }),
    );
    const controller = new AbortController();
    const pending = baseQuery('/health', baseQueryApi(signedInStore(), controller.signal), {});
    controller.abort();
    expect((await pending).error).toMatchObject({ title: REQUEST_ABORTED, quiet: true });
  });

  it('quiet endpoints mark their errors so no toast is shown', async () => {
    vi.stubGlobal('fetch', async () => json(401, { detail: 'Wrong e-mail or password' }));
    const result = await baseQuery(
      { url: '/identity/login', method: 'POST', body: {} },
      baseQueryApi(signedInStore()),
      { quiet: true },
    );
    expect(result.error).toMatchObject({ status: 401, detail: 'Wrong e-mail or password', quiet: true });
  });
});

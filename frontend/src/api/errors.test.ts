import { afterEach, describe, expect, it, vi } from 'vitest';
import { baseQueryApi, json, signedInStore } from '../test/helpers';
import { baseQuery } from './baseQuery';
import { closeChannel } from './channel';
import { GENERIC_ERROR, normalizeError, REQUEST_ABORTED } from './errors';

describe('error normalisation', () => {
  it.each([
    [400, 'Please check what was entered'],
    [401, 'Please sign in again'],
    [403, 'Not allowed'],
    [404, 'Not found'],
    [409, 'Not possible right now'],
    [422, 'Not possible as it stands'],
    [500, 'Something went wrong on the server'],
    [502, 'The server could not be reached'],
    [503, 'The server is busy'],
  ])('%i has a human title and, without words from the server, a sentence', (status, title) => {
    const error = normalizeError({ status, data: null });
    expect(error).toMatchObject({ status, title });
    expect(error.detail).toMatch(/^[A-Z].{20,}\.$/);
    expect(error.detail).not.toBe(title);
  });

  it("keeps the server's detail and field errors", () => {
    const body = { status: 400, title: 'Bad Request', detail: 'Password too short', errors: { password: ['min 12'] } };
    expect(normalizeError({ status: 400, data: body })).toMatchObject({
      title: 'Please check what was entered',
      detail: 'Password too short',
      errors: { password: ['min 12'] },
    });
  });

  it("a 409 shows the server's words under a human title, never Generic Error", () => {
    const body = { status: 409, title: 'Conflict', detail: 'The fiscal year FY 1 is closed: no request can be approved in it. Reopen it first.' };
    const meta = { request: new Request('http://x/'), response: new Response(null, { status: 409, statusText: 'Conflict' }) };
    expect(normalizeError({ status: 409, data: body }, meta)).toEqual({
      status: 409,
      title: 'Not possible right now',
      detail: body.detail,
      statusText: 'Conflict',
      body,
      errors: undefined,
    });
    const teapot = normalizeError({ status: 418, data: 'teapot' });
    expect(teapot).toMatchObject({ status: 418, title: GENERIC_ERROR, body: 'teapot' });
    expect(teapot.title).not.toMatch(/generic/i);
    expect(teapot.detail).toMatch(/^Something went wrong\. /);
  });

  it('a non-JSON error body keeps its status title', () => {
    expect(normalizeError({ status: 'PARSING_ERROR', originalStatus: 502, data: '<html>', error: 'x' })).toMatchObject({
      status: 502,
      title: 'The server could not be reached',
      body: '<html>',
    });
  });

  it('a network failure says so in words', () => {
    expect(normalizeError({ status: 'FETCH_ERROR', error: 'TypeError: fetch failed' })).toMatchObject({
      status: 0,
      title: 'The server could not be reached',
      detail: 'The server could not be reached. Check the connection and try again.',
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
    expect(result.error).toMatchObject({ status: 503, title: 'The server is busy', detail: 'Database unavailable' });
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

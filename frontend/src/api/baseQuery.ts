import {
  fetchBaseQuery,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryMeta,
} from '@reduxjs/toolkit/query';
import { API_BASE_URL, isAnonymousPath } from './config';
import { abortedError, normalizeError, statusTitle, type ApiError } from './errors';
import { signOutMessageSet } from './authSlice';
import { ensureFreshAccessToken, logout, SessionEndedError } from './session';
import { IDEMPOTENCY_HEADER, isKeyed, keyForSave, saveAnswered } from './idempotency';

export interface ApiExtraOptions {
  /** The caller shows the error itself: no toast. */
  quiet?: boolean;
}

const rawBaseQuery = fetchBaseQuery({ baseUrl: API_BASE_URL, credentials: 'include' });

/** The server's generic 401 details (auth::Refusal): the login page words these itself. */
const SIGNED_OUT_DETAILS = new Set(['A valid access token is required.', 'The session has ended. Please sign in again.']);

const sessionEnded: ApiError = {
  status: 401,
  title: statusTitle(401),
  detail: 'Your session has ended. Please sign in again.',
  quiet: true,
};

/**
 * fetchBaseQuery plus the session rules: bearer token,
 * refresh before expiry (single-flight, cross-tab), logout on any 401,
 * an Idempotency-Key on the saves that create or move money (the same on a
 * retry of a save not yet answered: ./idempotency), and errors normalised to ApiError.
 */
export const baseQuery: BaseQueryFn<string | FetchArgs, unknown, ApiError, ApiExtraOptions, FetchBaseQueryMeta> =
  async (args, api, extraOptions) => {
    const request: FetchArgs = typeof args === 'string' ? { url: args } : args;
    const anonymous = isAnonymousPath(request.url);
    let headers = request.headers;

    if (!anonymous) {
      try {
        const token = await ensureFreshAccessToken(api.dispatch);
        headers = { ...(headers as Record<string, string> | undefined), Authorization: `Bearer ${token}` };
      } catch (error) {
        if (api.signal.aborted) return { error: abortedError() };
        if (error instanceof SessionEndedError) return { error: sessionEnded };
        return { error: normalizeError({ status: 'FETCH_ERROR', error: String(error) }) };
      }
    }

    const keyed = isKeyed(request.method, request.url)
      ? keyForSave(request.method ?? 'POST', request.url, request.params, request.body)
      : undefined;
    if (keyed) headers = { ...(headers as Record<string, string> | undefined), [IDEMPOTENCY_HEADER]: keyed.key };

    const result = await rawBaseQuery({ ...request, headers }, api, {});
    if (keyed) {
      const response = result.meta?.response;
      saveAnswered(keyed.save, response?.status ?? 0, response?.headers.get('Retry-After'));
    }
    if (!result.error) return { data: result.data, meta: result.meta };

    const error = normalizeError(result.error, result.meta, api.signal.aborted);
    if (error.status === 401 && !anonymous) {
      // The server's own words when they say more than "signed out": a Coordinator shut out
      // by the sign-in block is told the block's message (as a refused refresh does).
      if (error.detail && !SIGNED_OUT_DETAILS.has(error.detail)) api.dispatch(signOutMessageSet(error.detail));
      api.dispatch(logout('expired'));
      return { error: { ...error, quiet: true }, meta: result.meta };
    }
    return { error: extraOptions?.quiet ? { ...error, quiet: true } : error, meta: result.meta };
  };

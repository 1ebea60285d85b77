import type { FetchBaseQueryError, FetchBaseQueryMeta } from '@reduxjs/toolkit/query';

/** The error every endpoint rejects with. */
export interface ApiError {
  /** HTTP status; 0 when no response arrived (network failure, abort). */
  status: number;
  /** Catalogue title: 'Bad Request', …, 'Generic Error' or 'Request aborted'. */
  title: string;
  /** Human readable text to show: the server's `detail` when it sent one. */
  detail: string;
  /** Field errors from the server's problem body. */
  errors?: Record<string, string[]>;
  statusText?: string;
  /** The raw response body (kept for 'Generic Error'). */
  body?: unknown;
  /** Set by endpoints that display their own errors, so no toast is shown. */
  quiet?: boolean;
}

/** A write based on a version someone else has since changed: the server names `version`. A reload
 * mends it, unlike the other conflicts (a name already taken, a closed year). */
export function isStale(error: ApiError): boolean {
  return error.status === 409 && !!error.errors?.version;
}

export const STATUS_TITLES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};
export const GENERIC_ERROR = 'Generic Error';
export const REQUEST_ABORTED = 'Request aborted';

interface ProblemBody {
  detail?: unknown;
  errors?: unknown;
}

function fromResponse(status: number, body: unknown, statusText: string): ApiError {
  const title = STATUS_TITLES[status] ?? GENERIC_ERROR;
  const problem = (typeof body === 'object' && body !== null ? body : {}) as ProblemBody;
  const detail = typeof problem.detail === 'string' && problem.detail ? problem.detail : title;
  const errors =
    typeof problem.errors === 'object' && problem.errors !== null
      ? (problem.errors as Record<string, string[]>)
      : undefined;
  return { status, title, detail, errors, statusText, body };
}

export function abortedError(): ApiError {
  return { status: 0, title: REQUEST_ABORTED, detail: REQUEST_ABORTED, quiet: true };
}

export function normalizeError(
  error: FetchBaseQueryError,
  meta?: FetchBaseQueryMeta,
  aborted = false,
): ApiError {
  if (aborted) return abortedError();
  const statusText = meta?.response?.statusText ?? '';
  if (typeof error.status === 'number') return fromResponse(error.status, error.data, statusText);
  switch (error.status) {
    case 'PARSING_ERROR':
      return fromResponse(error.originalStatus, error.data, statusText);
    case 'FETCH_ERROR':
      return {
        status: 0,
        title: GENERIC_ERROR,
        detail: 'The server could not be reached. Check the connection and try again.',
        statusText: 'Network error',
        body: error.error,
      };
    default:
      return { status: 0, title: GENERIC_ERROR, detail: error.error, statusText: error.status, body: error.error };
  }
}

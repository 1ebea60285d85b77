import type { FetchBaseQueryError, FetchBaseQueryMeta } from '@reduxjs/toolkit/query';

/** The error every endpoint rejects with. */
export interface ApiError {
  /** HTTP status; 0 when no response arrived (network failure, abort). */
  status: number;
  /** A human title for the status ('Not possible right now', …), or 'Request aborted'. */
  title: string;
  /** Human readable text to show: the server's `detail` when it sent one. */
  detail: string;
  /** Field errors from the server's problem body. */
  errors?: Record<string, string[]>;
  statusText?: string;
  /** The raw response body. */
  body?: unknown;
  /** Set by endpoints that display their own errors, so no toast is shown. */
  quiet?: boolean;
}

/** A write based on a version someone else has since changed: the server names `version`. A reload
 * mends it, unlike the other conflicts (a name already taken, a closed year). */
export function isStale(error: ApiError): boolean {
  return error.status === 409 && !!error.errors?.version;
}

/** A human title per status, shown above the server's words. */
export const STATUS_TITLES: Readonly<Record<number, string>> = {
  400: 'Please check what was entered',
  401: 'Please sign in again',
  403: 'Not allowed',
  404: 'Not found',
  409: 'Not possible right now',
  413: 'Too large',
  422: 'Not possible as it stands',
  429: 'Too many attempts',
  500: 'Something went wrong on the server',
  502: 'The server could not be reached',
  503: 'The server is busy',
  504: 'The server took too long',
};

/** What to say when the server sent no words of its own: a sentence per status. */
const STATUS_SENTENCES: Readonly<Record<number, string>> = {
  400: 'The server did not accept what was sent. Check the entries and try again.',
  401: 'Your session has ended. Please sign in again.',
  403: 'You do not have the permission to do this.',
  404: 'What you asked for does not exist, or you cannot see it.',
  409: 'This cannot be done in the record\'s current state, or someone changed it meanwhile. Reload the page and try again.',
  413: 'What was sent is larger than the server accepts.',
  422: 'The server refused this as it stands. Check the entries and try again.',
  429: 'There were too many attempts. Wait a moment and try again.',
  500: 'Something went wrong on the server. Try again; if it keeps happening, tell the office.',
  502: 'The server could not be reached. Try again in a moment.',
  503: 'The server is busy or starting. Try again in a moment.',
  504: 'The server took too long to answer. Try again in a moment.',
};

/** The title of a status without one of its own. */
export const GENERIC_ERROR = 'Something went wrong';
const GENERIC_SENTENCE = 'Something went wrong. Try again; if it keeps happening, tell the office.';
export const REQUEST_ABORTED = 'Request aborted';

/** The human title of an HTTP status. */
export function statusTitle(status: number): string {
  return STATUS_TITLES[status] ?? GENERIC_ERROR;
}

/** A sentence for an HTTP status, for when the server sent no words. */
export function statusSentence(status: number): string {
  return STATUS_SENTENCES[status] ?? GENERIC_SENTENCE;
}

interface ProblemBody {
  detail?: unknown;
  errors?: unknown;
}

function fromResponse(status: number, body: unknown, statusText: string): ApiError {
  const title = statusTitle(status);
  const problem = (typeof body === 'object' && body !== null ? body : {}) as ProblemBody;
  const detail = typeof problem.detail === 'string' && problem.detail.trim() ? problem.detail : statusSentence(status);
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
        title: 'The server could not be reached',
        detail: 'The server could not be reached. Check the connection and try again.',
        statusText: 'Network error',
        body: error.error,
      };
    default:
      return { status: 0, title: GENERIC_ERROR, detail: GENERIC_SENTENCE, statusText: error.status, body: error.error };
  }
}

import type { FetchBaseQueryMeta } from '@reduxjs/toolkit/query';
import { API_BASE_URL } from '../api/config';
import type { operations } from '../api/schema';
import { abortedError, normalizeError, type ApiError } from '../api/errors';
import { ensureFreshAccessToken, logout, SessionEndedError, type SessionDispatch } from '../api/session';

// File downloads from the API (report exports): the bytes need the bearer token, so no plain
// link works. RTK Query answers once, at the end; an export of 100,000 rows needs progress and a
// cancel, so this reads the stream itself with the session's token helpers.

/** An export's file format: the ReportFormat query parameter of every report export in the document. */
export type ReportFormat = NonNullable<operations['report_actual_vs_budget_retrieve']['parameters']['query']>['ReportFormat'];

/** `MinutesOffset` of the report calls: the browser's offset, UTC minus local in minutes (480 in Pacific Standard Time). */
export const minutesOffset = (now = new Date()): number => now.getTimezoneOffset();

/** `/api/v1` + path + query; empty values are left out. */
export function apiUrl(path: string, params: Record<string, string | number | undefined> = {}): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') query.set(key, String(value));
  }
  const qs = query.toString();
  return `${API_BASE_URL}${path}${qs ? `?${qs}` : ''}`;
}

/**
 * The file name of a `Content-Disposition` header: RFC 6266 `filename*=UTF-8''…` wins over
 * `filename="…"`; anything that could name a folder is dropped. `fallback` when there is none.
 */
export function filenameFromDisposition(header: string | null, fallback: string): string {
  if (!header) return fallback;
  let name: string | undefined;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (extended) {
    try {
      name = decodeURIComponent(extended[2].trim().replace(/^"|"$/g, ''));
    } catch {
      name = undefined;
    }
  }
  if (!name) {
    const plain = /filename\s*=\s*("((?:[^"\\]|\\.)*)"|[^;]+)/i.exec(header);
    if (plain) name = plain[2] !== undefined ? plain[2].replace(/\\(.)/g, '$1') : plain[1].trim();
  }
  const safe = name?.split(/[/\\]/).pop()?.trim();
  return safe ? safe : fallback;
}

/** "512 B", "1.4 KB", "12.3 MB": what the progress line shows. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export interface DownloadProgress {
  received: number;
  /** From Content-Length; streamed exports usually have none. */
  total: number | null;
}

export interface DownloadedFile {
  blob: Blob;
  fileName: string;
}

/** Thrown (rejected) with the API's problem, normalised like every other call's. */
export class DownloadError extends Error {
  constructor(readonly error: ApiError) {
    super(error.detail);
  }
}

async function problemOf(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  let data: unknown = text;
  try {
    data = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return normalizeError({ status: response.status, data }, { response } as FetchBaseQueryMeta);
}

/**
 * GETs `url` with the session's bearer token (refreshed first when due), reading the body as it
 * arrives and reporting each chunk. A 401 ends the session in every tab, as for any other call.
 * Aborting `signal` stops the transfer and rejects with 'Request aborted'.
 */
export async function fetchFile(
  url: string,
  options: { dispatch: SessionDispatch; signal?: AbortSignal; fallbackName: string; onProgress?: (p: DownloadProgress) => void },
): Promise<DownloadedFile> {
  const { dispatch, signal, fallbackName, onProgress } = options;
  const aborted = () => new DownloadError(abortedError());
  let token: string;
  try {
    token = await ensureFreshAccessToken(dispatch);
  } catch (error) {
    if (error instanceof SessionEndedError) {
      throw new DownloadError({ status: 401, title: 'Unauthorized', detail: 'Your session has ended. Please sign in again.', quiet: true });
    }
    throw new DownloadError(normalizeError({ status: 'FETCH_ERROR', error: String(error) }));
  }
  if (signal?.aborted) throw aborted();

  let response: Response;
  try {
    response = await fetch(url, { headers: { Authorization: `Bearer ${token}` }, credentials: 'include', cache: 'no-store', signal });
  } catch (error) {
    if (signal?.aborted) throw aborted();
    throw new DownloadError(normalizeError({ status: 'FETCH_ERROR', error: String(error) }));
  }
  if (!response.ok) {
    const problem = await problemOf(response);
    if (response.status === 401) dispatch(logout('expired'));
    throw new DownloadError(problem);
  }

  const length = Number(response.headers.get('Content-Length'));
  const total = Number.isFinite(length) && length > 0 ? length : null;
  const fileName = filenameFromDisposition(response.headers.get('Content-Disposition'), fallbackName);
  const type = response.headers.get('Content-Type') ?? 'application/octet-stream';
  const chunks: BlobPart[] = [];
  let received = 0;
  onProgress?.({ received, total });
  try {
    if (response.body) {
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        received += value.byteLength;
        onProgress?.({ received, total });
      }
    } else {
      const bytes = await response.arrayBuffer();
      chunks.push(bytes);
      received = bytes.byteLength;
      onProgress?.({ received, total });
    }
  } catch (error) {
    if (signal?.aborted) throw aborted();
    throw new DownloadError(normalizeError({ status: 'FETCH_ERROR', error: String(error) }));
  }
  return { blob: new Blob(chunks, { type }), fileName };
}

/** Hands a downloaded file to the browser's "save" under its name. */
export function saveFile({ blob, fileName }: DownloadedFile): void {
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  // The browser has taken the bytes by then; the URL would otherwise live as long as the tab.
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}

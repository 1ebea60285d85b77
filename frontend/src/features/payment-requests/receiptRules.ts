import type { Schemas } from '../../api/wire';
import type { ApiError } from '../../api/errors';

// Receipts: what the browser checks before announcing a file, against the receipt rules the
// form's rules carry (size and media types), and the messages for what the server refuses. The
// server is the authority (it checks type, size and the file's first bytes again); these checks
// only spare a round trip. Pure: tested in receiptRules.test.ts.

/** The receipts a form takes (its rules' `receipts`). */
export type ReceiptRules = Schemas['ReceiptRules'];

/** File name extensions of the media types (browsers often give HEIC files no type). */
const BY_EXTENSION: Record<string, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  heic: 'image/heic',
};

/** The file picker's filter: the rules' types and their extensions. */
export const receiptAccept = (rules: ReceiptRules) =>
  [
    ...Object.entries(BY_EXTENSION)
      .filter(([, type]) => rules.contentTypes.includes(type))
      .map(([ext]) => `.${ext}`),
    ...rules.contentTypes,
  ].join(',');

/** `PDF, PNG, JPEG or HEIC`. */
export function typeWords(rules: ReceiptRules): string {
  const names = rules.contentTypes.map((t) => (t.split('/')[1] ?? t).toUpperCase());
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}` : (names[0] ?? '');
}

/** `10 MB`. */
const sizeWords = (rules: ReceiptRules) => `${Math.round(rules.maxBytes / (1024 * 1024))} MB`;

/** A receipt as listed on an F2 request (the request's `files`). */
export type ReceiptFile = Schemas['FileDto'];

/** The Content-Type to announce and send: the browser's type when it is one we take, else the extension's. */
export function receiptContentType(name: string, type: string, rules: ReceiptRules): string | null {
  const allowed = (t: string | undefined) => (t !== undefined && rules.contentTypes.includes(t) ? t : null);
  const t = type.toLowerCase() === 'image/jpg' ? 'image/jpeg' : type.toLowerCase();
  if (allowed(t)) return t;
  // Without a (useful) type, the extension says it: browsers often leave HEIC untyped.
  if (t !== '' && t !== 'application/octet-stream' && t !== 'image/heif') return null;
  const ext = name.includes('.') ? name.split('.').pop()!.toLowerCase() : '';
  return allowed(BY_EXTENSION[ext]);
}

export type ReceiptCheck = { ok: true; contentType: string } | { ok: false; error: string };

/** Type and size, before anything is sent. */
export function checkReceipt(file: { name: string; type: string; size: number }, rules: ReceiptRules): ReceiptCheck {
  const contentType = receiptContentType(file.name, file.type, rules);
  if (!contentType) return { ok: false, error: `Only ${typeWords(rules)} files can be attached.` };
  if (file.size <= 0) return { ok: false, error: 'The file is empty.' };
  if (file.size > rules.maxBytes) return { ok: false, error: `The file is ${formatBytes(file.size)}; a receipt may be at most ${sizeWords(rules)}.` };
  return { ok: true, contentType };
}

/** 532 B, 1.2 KB, 3.4 MB (binary units, as the size limit is). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

const fieldMessages = (errors: Record<string, string[]> | undefined) => Object.values(errors ?? {}).flat();

/** A refused announcement (POST /fileupload/generate-upload-urls of one file): its field errors, or the detail. */
export function announceErrorMessage(error: Pick<ApiError, 'status' | 'detail' | 'errors'>): string {
  const fields = fieldMessages(error.errors);
  if (error.status === 403) return `You may not upload receipts: ${error.detail}`;
  return fields.length ? `Refused: ${fields.join('; ')}.` : error.detail;
}

/** A failed PUT of the bytes to the signed URL (status 0: no answer). */
export function uploadErrorMessage(status: number, responseText: string, rules: ReceiptRules): string {
  let detail = '';
  let fields: string[] = [];
  try {
    const body = JSON.parse(responseText) as { detail?: unknown; errors?: Record<string, string[]> };
    if (typeof body.detail === 'string') detail = body.detail;
    fields = fieldMessages(body.errors);
  } catch {
    // not a problem body (a proxy's page, or nothing)
  }
  switch (status) {
    case 0:
      return 'The upload failed: the server could not be reached.';
    case 403:
    case 409:
      // Expired (15 minutes), altered or already used: a new URL is needed.
      return `${detail || 'The upload link is no longer valid.'} Remove this entry and choose the file again.`;
    case 413:
      return `The file is too large for the server (at most ${sizeWords(rules)}).`;
    case 415:
      return `The server does not take this type of file (${typeWords(rules)}).`;
    default:
      if (fields.length) return `The server refused the file: ${fields.join('; ')}.`;
      return detail || `The upload failed (HTTP ${status}).`;
  }
}

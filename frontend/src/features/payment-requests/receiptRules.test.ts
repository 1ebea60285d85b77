import { describe, expect, it } from 'vitest';
import { announceErrorMessage, checkReceipt, formatBytes, MAX_RECEIPT_BYTES, RECEIPT_ACCEPT, receiptContentType, uploadErrorMessage } from './receiptRules';

describe('receipt checks', () => {
  it('takes the browser type when allowed, else the extension when the browser gave none', () => {
    expect(receiptContentType('scan.pdf', 'application/pdf')).toBe('application/pdf');
    expect(receiptContentType('photo.JPG', 'image/jpg')).toBe('image/jpeg');
    expect(receiptContentType('IMG_0001.HEIC', '')).toBe('image/heic');
    expect(receiptContentType('IMG_0001.heic', 'image/heif')).toBe('image/heic');
    expect(receiptContentType('receipt.png', 'application/octet-stream')).toBe('image/png');
    expect(receiptContentType('anim.gif', 'image/gif')).toBeNull();
    // A known wrong type is not overruled by a renamed extension.
    expect(receiptContentType('setup.pdf', 'application/x-msdownload')).toBeNull();
    expect(receiptContentType('README', '')).toBeNull();
    expect(RECEIPT_ACCEPT).toContain('.heic');
    expect(RECEIPT_ACCEPT).toContain('application/pdf');
  });

  it('refuses wrong types, empty files and files over 10 MB, with the size in the message', () => {
    expect(checkReceipt({ name: 'a.pdf', type: 'application/pdf', size: MAX_RECEIPT_BYTES })).toEqual({ ok: true, contentType: 'application/pdf' });
    expect(checkReceipt({ name: 'a.pdf', type: 'application/pdf', size: MAX_RECEIPT_BYTES + 1 })).toEqual({
      ok: false,
      error: 'The file is 10.0 MB; a receipt may be at most 10 MB.',
    });
    expect(checkReceipt({ name: 'big.pdf', type: 'application/pdf', size: 12.5 * 1024 * 1024 })).toMatchObject({ error: expect.stringContaining('12.5 MB') });
    expect(checkReceipt({ name: 'a.png', type: 'image/png', size: 0 })).toEqual({ ok: false, error: 'The file is empty.' });
    expect(checkReceipt({ name: 'a.gif', type: 'image/gif', size: 10 })).toEqual({ ok: false, error: 'Only PDF, PNG, JPEG or HEIC files can be attached.' });
  });

  it('formats sizes', () => {
    expect(formatBytes(532)).toBe('532 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(3.4 * 1024 * 1024)).toBe('3.4 MB');
  });
});

describe('server refusals', () => {
  it('explains a refused PUT by status, with the server detail or field errors', () => {
    const problem = (detail: string, errors?: Record<string, string[]>) => JSON.stringify({ status: 0, title: '', detail, errors });
    expect(uploadErrorMessage(403, problem('The upload URL has expired.'))).toBe('The upload URL has expired. Remove this entry and choose the file again.');
    expect(uploadErrorMessage(409, problem('The upload URL has been used already.'))).toContain('used already');
    expect(uploadErrorMessage(403, '')).toBe('The upload link is no longer valid. Remove this entry and choose the file again.');
    expect(uploadErrorMessage(413, '<html>')).toBe('The file is too large for the server (at most 10 MB).');
    expect(uploadErrorMessage(415, '')).toContain('PDF, PNG, JPEG or HEIC');
    expect(uploadErrorMessage(400, problem('Bad value', { contentType: ['the bytes are not a image/png file'] }))).toBe(
      'The server refused the file: the bytes are not a image/png file.',
    );
    expect(uploadErrorMessage(422, problem('The file is not usable.'))).toBe('The file is not usable.');
    expect(uploadErrorMessage(500, 'oops')).toBe('The upload failed (HTTP 500).');
    expect(uploadErrorMessage(0, '')).toBe('The upload failed: the server could not be reached.');
  });

  it('explains a refused announcement', () => {
    expect(announceErrorMessage({ status: 400, detail: 'Bad Request', errors: { 'files[0].size': ['must be between 1 byte and 10 MB'] } })).toBe(
      'Refused: must be between 1 byte and 10 MB.',
    );
    expect(announceErrorMessage({ status: 403, detail: 'Missing permission request:create' })).toBe('You may not upload receipts: Missing permission request:create');
    expect(announceErrorMessage({ status: 0, detail: 'The server could not be reached.' })).toBe('The server could not be reached.');
  });
});

import { describe, expect, it } from 'vitest';
import { servedRules } from '../../test/formTypes';
import { announceErrorMessage, checkReceipt, formatBytes, receiptAccept, receiptContentType, typeWords, uploadErrorMessage } from './receiptRules';

// The expense form's receipt rules as the server serves them.
const RULES = servedRules('F2').receipts!;
const MAX_RECEIPT_BYTES = RULES.maxBytes;

describe('receipt checks', () => {
  it('takes the browser type when allowed, else the extension when the browser gave none', () => {
    expect(receiptContentType('scan.pdf', 'application/pdf', RULES)).toBe('application/pdf');
    expect(receiptContentType('photo.JPG', 'image/jpg', RULES)).toBe('image/jpeg');
    expect(receiptContentType('IMG_0001.HEIC', '', RULES)).toBe('image/heic');
    expect(receiptContentType('IMG_0001.heic', 'image/heif', RULES)).toBe('image/heic');
    expect(receiptContentType('receipt.png', 'application/octet-stream', RULES)).toBe('image/png');
    expect(receiptContentType('anim.gif', 'image/gif', RULES)).toBeNull();
    // A known wrong type is not overruled by a renamed extension.
    expect(receiptContentType('setup.pdf', 'application/x-msdownload', RULES)).toBeNull();
    expect(receiptContentType('README', '', RULES)).toBeNull();
    expect(receiptAccept(RULES)).toContain('.heic');
    expect(receiptAccept(RULES)).toContain('application/pdf');
    expect(typeWords(RULES)).toBe('PDF, PNG, JPEG or HEIC');
    expect(receiptContentType('scan.pdf', 'application/pdf', { ...RULES, contentTypes: ['image/png'] })).toBeNull();
  });

  it('refuses wrong types, empty files and files over 10 MB, with the size in the message', () => {
    expect(checkReceipt({ name: 'a.pdf', type: 'application/pdf', size: MAX_RECEIPT_BYTES }, RULES)).toEqual({ ok: true, contentType: 'application/pdf' });
    expect(checkReceipt({ name: 'a.pdf', type: 'application/pdf', size: MAX_RECEIPT_BYTES + 1 }, RULES)).toEqual({
      ok: false,
      error: 'The file is 10.0 MB; a receipt may be at most 10 MB.',
    });
    expect(checkReceipt({ name: 'big.pdf', type: 'application/pdf', size: 12.5 * 1024 * 1024 }, RULES)).toMatchObject({ error: expect.stringContaining('12.5 MB') });
    expect(checkReceipt({ name: 'a.png', type: 'image/png', size: 0 }, RULES)).toEqual({ ok: false, error: 'The file is empty.' });
    expect(checkReceipt({ name: 'a.gif', type: 'image/gif', size: 10 }, RULES)).toEqual({ ok: false, error: 'Only PDF, PNG, JPEG or HEIC files can be attached.' });
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
    expect(uploadErrorMessage(403, problem('The upload URL has expired.'), RULES)).toBe('The upload URL has expired. Remove this entry and choose the file again.');
    expect(uploadErrorMessage(409, problem('The upload URL has been used already.'), RULES)).toContain('used already');
    expect(uploadErrorMessage(403, '', RULES)).toBe('The upload link is no longer valid. Remove this entry and choose the file again.');
    expect(uploadErrorMessage(413, '<html>', RULES)).toBe('The file is too large for the server (at most 10 MB).');
    expect(uploadErrorMessage(415, '', RULES)).toContain('PDF, PNG, JPEG or HEIC');
    expect(uploadErrorMessage(400, problem('Bad value', { contentType: ['the bytes are not a image/png file'] }), RULES)).toBe(
      'The server refused the file: the bytes are not a image/png file.',
    );
    expect(uploadErrorMessage(422, problem('The file is not usable.'), RULES)).toBe('The file is not usable.');
    expect(uploadErrorMessage(500, 'oops', RULES)).toBe('The upload failed (HTTP 500).');
    expect(uploadErrorMessage(0, '', RULES)).toBe('The upload failed: the server could not be reached.');
  });

  it('explains a refused announcement', () => {
    expect(announceErrorMessage({ status: 400, detail: 'Bad Request', errors: { 'files[0].size': ['must be between 1 byte and 10 MB'] } })).toBe(
      'Refused: must be between 1 byte and 10 MB.',
    );
    expect(announceErrorMessage({ status: 403, detail: 'Missing permission request:create' })).toBe('You may not upload receipts: Missing permission request:create');
    expect(announceErrorMessage({ status: 0, detail: 'The server could not be reached.' })).toBe('The server could not be reached.');
  });
});

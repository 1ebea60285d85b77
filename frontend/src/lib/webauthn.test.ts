import { describe, expect, it } from 'vitest';
import { creationOptions, fromBase64Url, passkeyFailure, requestOptions, toBase64Url } from './webauthn';

describe('base64url', () => {
  it.each([
    [[], ''],
    [[0], 'AA'],
    [[0xfb, 0xff], '-_8'],
    [[1, 2, 3], 'AQID'],
    [[0xff, 0xee, 0xdd, 0xcc], '_-7dzA'],
  ])('%j is %s and back', (bytes, text) => {
    expect(toBase64Url(new Uint8Array(bytes))).toBe(text);
    expect(Array.from(fromBase64Url(text))).toEqual(bytes);
  });

  it('reads padded and plain base64 too', () => {
    expect(Array.from(fromBase64Url('AA=='))).toEqual([0]);
    expect(Array.from(fromBase64Url('+/8'))).toEqual([0xfb, 0xff]);
  });
});

describe('options from the server', () => {
  it('turns the binary fields of creation options into bytes and keeps the rest', () => {
    const options = creationOptions({
      challenge: 'AQID',
      rp: { id: 'localhost', name: 'MentorPay' },
      user: { id: 'BAU', name: 'pia@example.org', displayName: 'Pia' },
      pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
      excludeCredentials: [{ type: 'public-key', id: 'Bgc' }],
    });
    expect(Array.from(options.challenge as Uint8Array)).toEqual([1, 2, 3]);
    expect(Array.from(options.user.id as Uint8Array)).toEqual([4, 5]);
    expect(Array.from(options.excludeCredentials![0].id as Uint8Array)).toEqual([6, 7]);
    expect(options.rp.name).toBe('MentorPay');
  });

  it('turns the allowed credentials of request options into bytes', () => {
    const options = requestOptions({ challenge: 'AA', allowCredentials: [{ type: 'public-key', id: 'AQ' }], userVerification: 'required' });
    expect(Array.from(options.allowCredentials![0].id as Uint8Array)).toEqual([1]);
    expect(options.userVerification).toBe('required');
  });
});

it('says what a failed prompt means', () => {
  expect(passkeyFailure(new DOMException('x', 'NotAllowedError'))).toMatch(/cancelled/);
  expect(passkeyFailure(new Error('x'))).toMatch(/could not be used/);
});

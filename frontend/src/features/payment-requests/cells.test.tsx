import { describe, expect, it } from 'vitest';
import { receiptWords } from './cells';

describe('receiptWords', () => {
  it('says how many receipts a row holds, in words', () => {
    expect(receiptWords(0)).toBe('No receipts');
    expect(receiptWords(1)).toBe('1 receipt');
    expect(receiptWords(3)).toBe('3 receipts');
  });
});

import { describe, expect, it } from 'vitest';
import { pageCount, rangeText } from './paging';

describe('paging', () => {
  it('range text and page count', () => {
    expect(rangeText(1, 25, 0)).toBe('0 of 0');
    expect(rangeText(2, 10, 25)).toBe('11–20 of 25');
    expect(rangeText(3, 10, 25)).toBe('21–25 of 25');
    expect(pageCount(10, 25)).toBe(3);
    expect(pageCount(10, 0)).toBe(1);
  });

  it('a count that stopped at its bound reads "10,000+" and leaves a next page', () => {
    expect(rangeText(1, 25, 10000, false)).toBe('1–25 of 10,000+');
    expect(rangeText(2, 25, 10000, true)).toBe('26–50 of 10000');
    expect(pageCount(25, 10000, false)).toBe(401);
    expect(pageCount(25, 10000, true)).toBe(400);
  });
});

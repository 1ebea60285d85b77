import { describe, expect, it } from 'vitest';
import { overflowOf, stickyOffsets } from './tableOverflow';

describe('table overflow', () => {
  it('says which side hides columns', () => {
    expect(overflowOf(0, 892, 892)).toEqual({ left: false, right: false });
    expect(overflowOf(0, 892, 1792)).toEqual({ left: false, right: true });
    expect(overflowOf(400, 892, 1792)).toEqual({ left: true, right: true });
    expect(overflowOf(900, 892, 1792)).toEqual({ left: true, right: false });
    expect(overflowOf(0.5, 892, 892.6)).toEqual({ left: false, right: false });
  });

  it('puts each sticky column right of the ones before it', () => {
    expect(stickyOffsets([])).toEqual([]);
    expect(stickyOffsets([90])).toEqual([0]);
    expect(stickyOffsets([90, 180, 40])).toEqual([0, 90, 270]);
  });
});

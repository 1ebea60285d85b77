import { describe, expect, it } from 'vitest';
import { codedName, requestRef } from './labels';

describe('labels', () => {
  it('names a request by its form and number', () => {
    expect(requestRef('F2', 601)).toBe('F2 #601');
    expect(requestRef('F14', '7')).toBe('F14 #7');
  });
  it('puts an item’s code before its name, and leaves a name without code alone', () => {
    expect(codedName({ code: '5310', name: 'Travel and mileage' })).toBe('5310 Travel and mileage');
    expect(codedName({ code: null, name: 'Travel' })).toBe('Travel');
    expect(codedName({ code: ' ', name: 'Travel' })).toBe('Travel');
    expect(codedName({ name: 'Travel' })).toBe('Travel');
  });
});

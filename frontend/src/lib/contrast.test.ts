import { DEFAULT_THEME } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { contrastRatio, READABLE_ON_WHITE } from './contrast';
import { PLACEHOLDER_COLOUR, theme } from './theme';

describe('colour contrast of the theme', () => {
  it('measures as WCAG does', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#0076b3', '#ffffff')).toBeCloseTo(4.95, 2);
  });

  it('keeps the primary colour #0076B3 for filled buttons and the active menu entry', () => {
    expect(theme.colors!.brand![6]).toBe('#0076b3');
    expect(theme.primaryShade).toBe(6);
  });

  it('gives every named colour shades 6-9 that carry white text and read on white', () => {
    for (const [name, tuple] of Object.entries(theme.colors!)) {
      if (name === 'brand') continue;
      for (const shade of [6, 7, 8, 9]) {
        expect(contrastRatio(tuple![shade], '#ffffff'), `${name}.${shade}`).toBeGreaterThanOrEqual(READABLE_ON_WHITE);
      }
    }
  });

  it('leaves the pale shades for backgrounds as Mantine made them', () => {
    expect(theme.colors!.green![0]).toBe(DEFAULT_THEME.colors.green[0]);
  });

  it('reads secondary text and placeholders at 4.5:1 on white and on the page grey', () => {
    for (const text of [DEFAULT_THEME.colors.gray[7], PLACEHOLDER_COLOUR]) {
      for (const background of ['#ffffff', DEFAULT_THEME.colors.gray[0]]) expect(contrastRatio(text, background)).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('reads links at 4.5:1 on white and on a striped table row', () => {
    const anchor = theme.colors!.brand![7];
    for (const background of ['#ffffff', DEFAULT_THEME.colors.gray[0]]) expect(contrastRatio(anchor, background)).toBeGreaterThanOrEqual(4.5);
  });
});

import { darken, luminance, type MantineColorsTuple } from '@mantine/core';

// WCAG 2.x contrast (1.4.3, 1.4.11): the ratio of two colours' relative luminances.

export const contrastRatio = (a: string, b: string): number => {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
};

/**
 * Text needs 4.5:1 on white. A shade also carries text on its own 10 % tint (light badges,
 * alerts, light buttons), about a fifth darker than white: the margin covers it.
 */
export const READABLE_ON_WHITE = 5.7;

/** The colour, darkened in small steps until white text on it (and it on white) is readable. */
export function readable(colour: string, target = READABLE_ON_WHITE): string {
  let c = colour;
  for (let i = 0; i < 40 && contrastRatio(c, '#ffffff') < target; i++) c = darken(c, 0.03);
  return c;
}

/**
 * A palette whose shades 6-9 (filled backgrounds under white text, text colours, light-variant
 * text, outlines) are all readable on white; the pale shades 0-5 stay for backgrounds.
 */
export const readableTuple = (tuple: MantineColorsTuple): MantineColorsTuple =>
  tuple.map((c, i) => (i >= 6 ? readable(c) : c)) as unknown as MantineColorsTuple;

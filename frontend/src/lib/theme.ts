import { createTheme, type MantineColorsTuple } from '@mantine/core';

// SPEC §9: primary colour #0076B3, the filled shade (index 6) of this tuple.
const brand: MantineColorsTuple = [
  '#e5f3fa',
  '#cce6f4',
  '#99cde9',
  '#66b4de',
  '#339bd3',
  '#1a89c3',
  '#0076b3',
  '#00669b',
  '#005683',
  '#00466b',
];

export const theme = createTheme({
  primaryColor: 'brand',
  primaryShade: 6,
  colors: { brand },
  // System fonts only: the intranet page loads nothing from outside.
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  defaultRadius: 'sm',
});

export const NAVBAR_WIDTH = 264;
export const HEADER_HEIGHT = 68;

import { useMantineTheme, type MantineBreakpoint } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';

/**
 * Whether the window is narrower than one of the theme's breakpoints (a phone, or a desktop
 * window zoomed far in), known on the first render: a layout chosen by it never flashes the
 * other one first.
 */
export function useBelow(breakpoint: MantineBreakpoint): boolean {
  const theme = useMantineTheme();
  return !useMediaQuery(`(min-width: ${theme.breakpoints[breakpoint]})`, true, { getInitialValueInEffect: false });
}

import {
  Badge,
  createTheme,
  DEFAULT_THEME,
  Loader,
  Menu,
  Modal,
  MultiSelect,
  ModalHeader,
  type ModalHeaderProps,
  Notification,
  Pagination,
  Select,
  type CSSVariablesResolver,
  type MantineColorsTuple,
} from '@mantine/core';
import { readableTuple } from './contrast';

// The primary colour #0076B3, the filled shade (index 6) of this tuple.
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

/** Neutral palettes: text uses their dark shades, chosen below, not their mid ones. */
const NEUTRAL = new Set(['dark', 'gray']);

/**
 * Every named colour (red, green, orange...) with shades that carry text: Mantine's own mid
 * shades (green 6 is 2.4:1 under white text) fail WCAG 1.4.3.
 */
const readableColours = Object.fromEntries(
  Object.entries(DEFAULT_THEME.colors)
    .filter(([name]) => !NEUTRAL.has(name))
    .map(([name, tuple]) => [name, readableTuple(tuple)]),
);

export const theme = createTheme({
  primaryColor: 'brand',
  primaryShade: 6,
  colors: { ...readableColours, brand },
  // System fonts only: the intranet page loads nothing from outside.
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  defaultRadius: 'sm',
  components: {
    // A badge (a status chip) shows its whole label: never shrunk by a squeezed cell or row,
    // never cut to "ACTI…"; the cell grows or wraps around it instead.
    Badge: Badge.extend({
      styles: {
        root: { flexShrink: 0, maxWidth: 'none', width: 'max-content', overflow: 'visible' },
        label: { overflow: 'visible', textOverflow: 'clip' },
      },
    }),
    // A spinner is said, not only seen: "Loading" (or the caller's own words) as a status.
    Loader: Loader.extend({ defaultProps: { role: 'status', 'aria-label': 'Loading' } }),
    // The × of every dialog has a name.
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
    // A dialog's title bar is a plain box: Mantine's <header> there, outside any sectioning
    // element, is a second banner landmark beside the page's top bar.
    ModalHeader: ModalHeader.extend({ defaultProps: { component: 'div' } as Partial<ModalHeaderProps> }),
    // An option list scrolls as itself (the listbox its field controls), not inside a scroll
    // area of its own, whose unfocusable scroller keyboard users could not reach; the field's
    // arrow keys scroll the list (app/reflow.css gives it its height).
    // Typing in a select highlights the first match, so Enter takes it (lib/comboboxKeys.ts
    // gives Enter and Space the rest); taking the chosen option again keeps it rather than
    // emptying the field (an optional one has its named × for that: lib/clearable.ts).
    Select: Select.extend({ defaultProps: { withScrollArea: false, selectFirstOptionOnChange: true, allowDeselect: false } }),
    MultiSelect: MultiSelect.extend({ defaultProps: { withScrollArea: false, selectFirstOptionOnChange: true } }),
    // A menu holds menu items only (the empty focus holder broke role="menu"); the first item
    // takes the focus instead.
    Menu: Menu.extend({ defaultProps: { withInitialFocusPlaceholder: false } }),
    // A toast's × has a name, and its message under a title is secondary text, not Mantine's
    // gray 6 (3.3:1 on white).
    Notification: Notification.extend({
      defaultProps: { closeButtonProps: { 'aria-label': 'Close' } },
      styles: { description: { color: 'var(--mantine-color-dimmed)' } },
    }),
    // The arrow-only controls of every pager have names.
    Pagination: Pagination.extend({
      defaultProps: {
        getControlProps: (control: string) => ({ 'aria-label': `${control} page` }),
        getItemProps: (page: number) => ({ 'aria-label': `Page ${page}` }),
      },
    }),
  },
});

/**
 * Text colours Mantine takes from mid shades, moved to readable ones: secondary ("dimmed") text
 * and placeholders (gray 6 and 5: 3.3:1 and 2.1:1 on white), and the primary colour as text on
 * its own tint (4.4:1), where the filled #0076B3 itself stays; grey ones likewise.
 */
export const PLACEHOLDER_COLOUR = '#6a7179';

export const cssVariables: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-placeholder': PLACEHOLDER_COLOUR,
    '--mantine-color-brand-light-color': 'var(--mantine-color-brand-8)',
    // Grey badges and buttons: their text on their tint, and white on the filled grey.
    '--mantine-color-gray-light-color': 'var(--mantine-color-gray-8)',
    '--mantine-color-gray-filled': 'var(--mantine-color-gray-7)',
    '--mantine-color-gray-text': 'var(--mantine-color-gray-7)',
    // Input, checkbox and default-button borders: 3:1 against white (1.4.11), not 1.5:1.
    '--mantine-color-default-border': 'var(--mantine-color-gray-6)',
    // Links one shade darker than the primary colour: #0076B3 is 4.45:1 on a striped table
    // row's grey; brand 7 reaches 5.6:1 there.
    '--mantine-color-anchor': 'var(--mantine-color-brand-7)',
  },
  dark: {},
});

export const NAVBAR_WIDTH = 264;
export const HEADER_HEIGHT = 68;
export const FOOTER_HEIGHT = 40;

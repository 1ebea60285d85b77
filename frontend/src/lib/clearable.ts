import type { MouseEvent } from 'react';

// The one way a select or multiselect whose choice may be empty (an optional field, a filter)
// is emptied: Mantine's × at its end. Mantine keeps that button out of the Tab order and hidden
// from screen readers, so only a mouse could clear; here it is the stop right after the field,
// named after it ("Clear Status"), and after clearing the focus goes back to the field (the
// button leaves with the choice). A required choice gets none of this: it is not clearable, and
// taking its chosen option again keeps it (`allowDeselect: false` in theme.ts). The rule is
// written down in docs/accessibility.md.

/** After a clear, the focus goes back to the field the button belonged to. */
function backToField(event: MouseEvent<HTMLButtonElement>) {
  const field = event.currentTarget.closest('.mantine-Input-wrapper')?.querySelector<HTMLInputElement>('input:not([type="hidden"])');
  field?.focus();
}

/**
 * The props of a select or multiselect labelled `label` whose choice may be emptied; `on`
 * false (a form shown read-only) leaves it unclearable.
 */
export function clearable(label: string, on = true) {
  if (!on) return { clearable: false };
  return {
    clearable: true,
    clearButtonProps: {
      'aria-label': `Clear ${label}`,
      tabIndex: 0,
      'aria-hidden': false,
      onClick: backToField,
      // A target of its own now: 24 px at least (WCAG 2.5.8), not Mantine's 22.
      style: { width: 24, height: 24, minWidth: 24, minHeight: 24 },
    },
  };
}

/**
 * The same for a date field. Mantine's date input lets these props replace its own clearing
 * (a select keeps both), so `clear` empties the field here before the focus goes back to it.
 */
export function clearableDate(label: string, clear: () => void) {
  const { clearButtonProps } = clearable(label);
  return {
    clearable: true,
    clearButtonProps: {
      ...clearButtonProps,
      onClick: (event: MouseEvent<HTMLButtonElement>) => {
        clear();
        backToField(event);
      },
    },
  };
}

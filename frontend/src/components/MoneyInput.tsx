import { TextInput, type TextInputProps } from '@mantine/core';
import { useState } from 'react';
import { centsToInput, parseMoneyInput, toCents } from './money';

type Props = Omit<TextInputProps, 'value' | 'onChange' | 'leftSection'> & {
  /** Exactly what the user typed (kept as typed: never rounded or reformatted while editing). */
  value: string;
  onChange: (text: string) => void;
  allowNegative?: boolean;
  /** Show the parse problem at once (not only after a save attempt). */
  checkWhileTyping?: boolean;
};

/**
 * An amount in dollars. It keeps the typed text; `parseMoneyInput` turns it into cents
 * or a reason, so "0.725" and "-5" are field errors rather than $0.72 and $0.00.
 */
export function MoneyInput({ value, onChange, allowNegative, checkWhileTyping = true, error, ...rest }: Props) {
  const parsed = value.trim() === '' ? null : parseMoneyInput(value, { allowNegative });
  const own = checkWhileTyping && parsed?.error ? parsed.error : undefined;
  return (
    <TextInput
      inputMode="decimal"
      autoComplete="off"
      leftSection="$"
      leftSectionWidth={24}
      styles={{ input: { textAlign: 'right', fontVariantNumeric: 'tabular-nums' } }}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      // The typed text's own reason is the more exact one (the form's check sees no amount).
      error={own || error}
      // Forms refuse to save (and ask nothing) while an amount is refused.
      data-refused={own ? 'true' : undefined}
      {...rest}
    />
  );
}

/**
 * A money input over a number-valued form state (amount in dollars, '' when empty): the
 * state takes the typed amount only when it parses exactly; a refused text stays on screen
 * with its reason and blocks the save.
 */
export function MoneyField({
  value,
  onChange,
  ...rest
}: Omit<Props, 'value' | 'onChange'> & { value: number | ''; onChange: (value: number | '') => void }) {
  const [text, setText] = useState(() => (value === '' ? '' : centsToInput(toCents(value))));
  // A new value from outside (a reload, a reset) replaces the text unless it says the same;
  // adjusted while rendering (React's pattern for state that follows a prop), not in an effect.
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    const parsed = parseMoneyInput(text);
    const same = value === '' ? text.trim() === '' : parsed.error === undefined && parsed.cents === toCents(value);
    if (!same) setText(value === '' ? '' : centsToInput(toCents(value)));
  }
  return (
    <MoneyInput
      {...rest}
      value={text}
      onChange={(t) => {
        setText(t);
        if (t.trim() === '') onChange('');
        else {
          const parsed = parseMoneyInput(t, { allowNegative: rest.allowNegative });
          if (parsed.error === undefined) onChange(parsed.cents / 100);
        }
      }}
    />
  );
}

/**
 * After a failed save: bring its message into view. Field errors come with an error summary
 * that takes the focus itself (and so is in view); this is for the others (a conflict, a rule).
 */
export function showSaveError(form: HTMLElement | null) {
  requestAnimationFrame(() => {
    const alert = form?.querySelector<HTMLElement>('[role="alert"]');
    if (alert && !alert.contains(document.activeElement)) alert.scrollIntoView({ block: 'center' });
  });
}

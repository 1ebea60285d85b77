import { TextInput, type TextInputProps } from '@mantine/core';
import { parseMoneyInput } from './money';

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
      error={error || own}
      {...rest}
    />
  );
}

import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';

/**
 * A typed filter box over an address-bar value (useUrlState): the box shows what is typed, the
 * address bar gets it after a pause (or at once with `commit`, for Enter), and a change of the
 * address bar itself (Back, Clear) replaces the box's text.
 */
export function useTypedFilter(value: string | undefined, onChange: (value: string | undefined) => void, delay = 350) {
  const current = value ?? '';
  const [text, setText] = useState(current);
  const [debounced] = useDebouncedValue(text, delay);
  useEffect(() => {
    if (debounced.trim() !== current) onChange(debounced.trim() || undefined);
    // Only the typed value drives this; the address bar drives the adjustment below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debounced]);
  // Adjusted while rendering (React's pattern for state that follows a prop), not in an effect.
  const [shown, setShown] = useState(current);
  if (shown !== current) {
    setShown(current);
    if (current !== text.trim()) setText(current);
  }
  return { text, setText, commit: () => onChange(text.trim() || undefined) };
}

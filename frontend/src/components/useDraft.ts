import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * A local, editable copy of what the server returned. `dirty` compares by value,
 * so typing a value back to what it was is not a change. When the server value
 * changes (after a save or a reload) the draft follows it unless the user has
 * unsaved edits.
 */
export function useDraft<T>(source: T | undefined) {
  const [draft, setDraft] = useState<T | undefined>(source);
  const base = useRef<T | undefined>(source);
  const draftRef = useRef(draft);
  draftRef.current = draft;

  useEffect(() => {
    // An equal value (a refetch, or a caller building the value anew each render) changes nothing.
    if (source === undefined || same(source, base.current)) return;
    const untouched = same(draftRef.current, base.current);
    base.current = source;
    if (untouched) setDraft(source);
  }, [source]);

  const reset = useCallback(() => setDraft(base.current), []);
  /** Takes the saved server value as the new base and the draft. */
  const accept = useCallback((saved: T) => {
    base.current = saved;
    setDraft(saved);
  }, []);

  return { draft, setDraft, dirty: draft !== undefined && !same(draft, base.current), reset, accept };
}

const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

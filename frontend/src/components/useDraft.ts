import { useCallback, useState, type SetStateAction } from 'react';

/**
 * A local, editable copy of what the server returned. `dirty` compares by value,
 * so typing a value back to what it was is not a change. When the server value
 * changes (after a save or a reload) the draft follows it unless the user has
 * unsaved edits.
 */
export function useDraft<T>(source: T | undefined) {
  // Base (the server value the draft started from) and draft change together, so they are one state;
  // `seen` is the last server value looked at (after a save, `accept` moves the base before it arrives).
  const [state, setState] = useState<{ seen: T | undefined; base: T | undefined; draft: T | undefined }>({
    seen: source,
    base: source,
    draft: source,
  });
  // Follows a new server value while rendering (React's pattern for state that tracks a prop). An
  // equal value (a refetch, or a caller building the value anew each render) changes nothing.
  if (!same(source, state.seen)) {
    setState((s) =>
      source === undefined || same(source, s.base)
        ? { ...s, seen: source }
        : { seen: source, base: source, draft: same(s.draft, s.base) ? source : s.draft },
    );
  }

  const setDraft = useCallback(
    (next: SetStateAction<T | undefined>) =>
      setState((s) => ({ ...s, draft: typeof next === 'function' ? (next as (d: T | undefined) => T | undefined)(s.draft) : next })),
    [],
  );
  const reset = useCallback(() => setState((s) => ({ ...s, draft: s.base })), []);
  /** Takes the saved server value as the new base and the draft. */
  const accept = useCallback((saved: T) => setState((s) => ({ ...s, base: saved, draft: saved })), []);

  const { draft, base } = state;
  return { draft, setDraft, dirty: draft !== undefined && !same(draft, base), reset, accept };
}

const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

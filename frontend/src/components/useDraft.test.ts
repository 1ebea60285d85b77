// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useDraft } from './useDraft';

describe('useDraft', () => {
  it('starts from the server value and compares by value', () => {
    const { result } = renderHook(({ source }) => useDraft(source), { initialProps: { source: { a: 1 } as { a: number } | undefined } });
    expect(result.current.draft).toEqual({ a: 1 });
    expect(result.current.dirty).toBe(false);
    act(() => result.current.setDraft({ a: 2 }));
    expect(result.current.dirty).toBe(true);
    act(() => result.current.setDraft({ a: 1 }));
    expect(result.current.dirty).toBe(false); // typed back: no change
  });

  it('follows a new server value unless there are unsaved edits', () => {
    const { result, rerender } = renderHook(({ source }) => useDraft(source), { initialProps: { source: undefined as { a: number } | undefined } });
    expect(result.current.draft).toBeUndefined();
    rerender({ source: { a: 1 } });
    expect(result.current.draft).toEqual({ a: 1 });
    act(() => result.current.setDraft({ a: 5 }));
    rerender({ source: { a: 3 } });
    expect(result.current.draft).toEqual({ a: 5 }); // edits kept
    expect(result.current.dirty).toBe(true);
    act(() => result.current.reset());
    expect(result.current.draft).toEqual({ a: 3 }); // reset goes to the latest server value
  });

  it('accept makes the saved value the new base', () => {
    const { result } = renderHook(() => useDraft<{ a: number }>({ a: 1 }));
    act(() => result.current.setDraft({ a: 9 }));
    act(() => result.current.accept({ a: 9 }));
    expect(result.current.dirty).toBe(false);
  });

  it('keeps an accepted save while the old server value is still shown', () => {
    const { result, rerender } = renderHook(({ source }) => useDraft(source), { initialProps: { source: { a: 1 } } });
    act(() => result.current.setDraft({ a: 9 }));
    act(() => result.current.accept({ a: 9 }));
    rerender({ source: { a: 1 } }); // the same old value, built anew, before the refetch lands
    expect(result.current.draft).toEqual({ a: 9 });
    expect(result.current.dirty).toBe(false);
    rerender({ source: { a: 9 } });
    expect(result.current.draft).toEqual({ a: 9 });
  });
});

// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { CHUNK_LOAD_ERROR_EVENT, lazyPage } from './lazyPage';

describe('lazy page loading', () => {
  const failure = new TypeError('Failed to fetch dynamically imported module');
  const failingLoad = () => Promise.reject(failure);
  let remove: (() => void) | null = null;
  afterEach(() => remove?.());

  function listen(handle: boolean) {
    const seen: unknown[] = [];
    const listener = (event: Event) => {
      seen.push((event as CustomEvent<{ error: unknown }>).detail.error);
      expect(event.cancelable).toBe(true);
      if (handle) event.preventDefault();
    };
    window.addEventListener(CHUNK_LOAD_ERROR_EVENT, listener);
    remove = () => window.removeEventListener(CHUNK_LOAD_ERROR_EVENT, listener);
    return seen;
  }

  it('raises the event and rethrows when no listener handles it', async () => {
    const seen = listen(false);
    await expect(lazyPage(failingLoad)()).rejects.toBe(failure);
    expect(seen).toEqual([failure]);
  });

  it('does not rethrow when a listener called preventDefault', async () => {
    const seen = listen(true);
    const route = await lazyPage(failingLoad)();
    expect(typeof route.Component).toBe('function');
    expect(seen).toEqual([failure]);
  });

  it('returns the page component when the chunk loads', async () => {
    const Page = () => null;
    const route = await lazyPage(() => Promise.resolve({ default: Page }), { permission: 'budget:read' })();
    expect(typeof route.Component).toBe('function');
  });
});

/**
 * The browser layout APIs jsdom lacks and Mantine reads (media queries, resize observers), as
 * inert stand-ins. Component tests call it in `beforeAll`.
 */
export function stubLayoutApis(): void {
  window.matchMedia ??= ((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  })) as typeof window.matchMedia;
  // Mantine scrolls the highlighted option of a select's list into view.
  Element.prototype.scrollIntoView ??= () => undefined;
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}

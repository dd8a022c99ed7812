/**
 * What jsdom lacks and the design system's components use: media queries (the colour scheme, the
 * navigation's width), element size observers and scrolling an option into view. Runs before every
 * test file; does nothing outside a DOM environment.
 */
if (typeof window !== 'undefined') {
  if (!window.matchMedia) {
    Object.defineProperty(window, 'matchMedia', {
      writable: true,
      value: (query: string): MediaQueryList =>
        ({
          matches: false,
          media: query,
          onchange: null,
          addListener: () => undefined,
          removeListener: () => undefined,
          addEventListener: () => undefined,
          removeEventListener: () => undefined,
          dispatchEvent: () => false,
        }) as MediaQueryList,
    });
  }
  if (!('ResizeObserver' in window)) {
    class NoResizeObserver {
      observe(): void {}
      unobserve(): void {}
      disconnect(): void {}
    }
    Object.defineProperty(window, 'ResizeObserver', { writable: true, value: NoResizeObserver });
    Object.defineProperty(globalThis, 'ResizeObserver', { writable: true, value: NoResizeObserver });
  }
  window.HTMLElement.prototype.scrollIntoView ??= function scrollIntoView(): void {};
}

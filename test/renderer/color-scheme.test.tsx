// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from './render';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppearanceSection } from '../../src/renderer/src/features/settings/appearance-section';

const KEY = 'portolan.color-scheme';
const scheme = () => document.documentElement.getAttribute('data-mantine-color-scheme');
const realMatchMedia = window.matchMedia;

/** An OS that prefers dark (or light) colours, as the media query answers it. */
function osPrefers(dark: boolean): void {
  window.matchMedia = (query: string) =>
    ({
      matches: dark && query.includes('prefers-color-scheme: dark'),
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

function choose(label: string): void {
  fireEvent.click(within(screen.getByTestId('appearance-theme')).getByLabelText(label));
}

beforeEach(() => {
  window.localStorage.clear();
  document.documentElement.removeAttribute('data-mantine-color-scheme');
});
afterEach(() => {
  cleanup();
  window.matchMedia = realMatchMedia;
});

describe('colour scheme', () => {
  it('follows the system by default: dark when the OS is dark, light when it is light', () => {
    osPrefers(true);
    render(<AppearanceSection />);
    expect(scheme()).toBe('dark');
    cleanup();
    osPrefers(false);
    render(<AppearanceSection />);
    expect(scheme()).toBe('light');
    expect(window.localStorage.getItem(KEY)).toBeNull();
  });

  it('switches to the chosen scheme at once and keeps the choice for the next start', () => {
    osPrefers(false);
    render(<AppearanceSection />);
    choose('Dark');
    expect(scheme()).toBe('dark');
    expect(window.localStorage.getItem(KEY)).toBe('dark');
    // A restart: a new window reads the choice back, whatever the OS says.
    cleanup();
    document.documentElement.removeAttribute('data-mantine-color-scheme');
    render(<AppearanceSection />);
    expect(scheme()).toBe('dark');
    expect(
      (within(screen.getByTestId('appearance-theme')).getByLabelText('Dark') as HTMLInputElement).checked,
    ).toBe(true);

    choose('Follow the system');
    expect(scheme()).toBe('light');
    expect(window.localStorage.getItem(KEY)).toBe('auto');
  });
});

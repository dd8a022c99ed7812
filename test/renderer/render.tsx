import type { ReactElement, ReactNode } from 'react';
import { render as renderBare, type RenderOptions, type RenderResult } from '@testing-library/react';
import { AppProviders } from '../../src/renderer/src/app/app-providers';

/**
 * Testing Library with the app's design-system providers around what it renders (theme, colour
 * scheme, toasts; no transitions or portals in tests). Renderer tests import everything from here.
 */
export * from '@testing-library/react';

function Providers({ children }: { children: ReactNode }) {
  return <AppProviders env="test">{children}</AppProviders>;
}

export function render(ui: ReactElement, options?: Omit<RenderOptions, 'wrapper'>): RenderResult {
  return renderBare(ui, { wrapper: Providers, ...options });
}

import type { ReactNode } from 'react';
import { MantineProvider, getDefaultZIndex } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { colorSchemeManager, cssVariablesResolver, DEFAULT_COLOR_SCHEME, theme } from '../theme';

/**
 * The design system around the app: the theme, the colour scheme (the analyst's choice, following the
 * OS by default), and the toast layer. Tests render pages inside the same providers with env 'test'
 * (no transitions, no portals).
 */
export function AppProviders({ children, env }: { children: ReactNode; env?: 'default' | 'test' }) {
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      colorSchemeManager={colorSchemeManager}
      defaultColorScheme={DEFAULT_COLOR_SCHEME}
      {...(env ? { env } : {})}
    >
      {/*
        Toasts sit above the status bar, bottom right, and fade on their own. They stay under dialogs:
        Mantine puts them over modals, where a toast of the import before covered the next import
        dialog's buttons at 1024×700. A dialog is what the analyst is answering; the toast waits behind.
      */}
      <Notifications
        position="bottom-right"
        limit={4}
        autoClose={6000}
        zIndex={getDefaultZIndex('modal') - 1}
      />
      {children}
    </MantineProvider>
  );
}

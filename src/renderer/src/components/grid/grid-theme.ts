import { AllCommunityModule, ModuleRegistry, themeQuartz } from 'ag-grid-community';
import { useEffect, useState } from 'react';

// Registered once for the whole renderer; the community bundle is all these grids use.
ModuleRegistry.registerModules([AllCommunityModule]);

/** One theme, two modes; the grids follow `data-ag-theme-mode` on <body>, kept by `useGridThemeMode`. */
export const gridTheme = themeQuartz
  .withParams(
    {
      backgroundColor: '#ffffff',
      foregroundColor: '#1d2330',
      headerBackgroundColor: '#f3f5f8',
      accentColor: '#2e6fd8',
      fontSize: 13,
      spacing: 6,
    },
    'light',
  )
  .withParams(
    {
      backgroundColor: '#1b1f27',
      foregroundColor: '#e3e7ee',
      headerBackgroundColor: '#252b36',
      accentColor: '#5b9bff',
      fontSize: 13,
      spacing: 6,
      borderColor: '#394252',
    },
    'dark',
  );

/** Light or dark, following the document's `data-theme` if the shell sets one, else the OS preference. */
export function useGridThemeMode(): 'light' | 'dark' {
  const read = (): 'light' | 'dark' => {
    const explicit = document.documentElement.dataset.theme;
    if (explicit === 'dark' || explicit === 'light') return explicit;
    return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  };
  const [mode, setMode] = useState(read);
  useEffect(() => {
    const mq = window.matchMedia?.('(prefers-color-scheme: dark)');
    const update = () => setMode(read());
    mq?.addEventListener('change', update);
    const obs = new MutationObserver(update);
    obs.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => {
      mq?.removeEventListener('change', update);
      obs.disconnect();
    };
  }, []);
  // ag-grid reads the mode only from <html>, <body> or an `.ag-theme-mode` element carrying
  // `data-ag-theme-mode`; on <body> it reaches every grid and every popup they open.
  useEffect(() => {
    document.body.dataset.agThemeMode = mode;
  }, [mode]);
  return mode;
}

import {
  localStorageColorSchemeManager,
  useComputedColorScheme,
  useMantineColorScheme,
  type MantineColorScheme,
} from '@mantine/core';

/** What the analyst chose: light, dark, or whatever the operating system uses ('auto', the default). */
export type ColorSchemeChoice = MantineColorScheme;

export const COLOR_SCHEME_CHOICES: readonly { value: ColorSchemeChoice; label: string }[] = [
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
  { value: 'auto', label: 'Follow the system' },
];

/**
 * The choice is kept in the window's local storage, like the grids' column layouts: it survives a
 * restart (the app's origin does not change) and is per machine, not per profile.
 */
export const colorSchemeManager = localStorageColorSchemeManager({ key: 'portolan.color-scheme' });

export const DEFAULT_COLOR_SCHEME: ColorSchemeChoice = 'auto';

/** The scheme in force (the OS's when the choice is 'auto'): what grids and charts draw with. */
export function useResolvedColorScheme(): 'light' | 'dark' {
  return useComputedColorScheme('light', { getInitialValueInEffect: false });
}

/** The analyst's choice and the way to change it (Settings → Appearance, the palette, the status bar). */
export function useColorSchemeChoice(): {
  choice: ColorSchemeChoice;
  resolved: 'light' | 'dark';
  setChoice: (c: ColorSchemeChoice) => void;
  toggle: () => void;
} {
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const resolved = useResolvedColorScheme();
  return {
    choice: colorScheme,
    resolved,
    setChoice: setColorScheme,
    toggle: () => setColorScheme(resolved === 'dark' ? 'light' : 'dark'),
  };
}

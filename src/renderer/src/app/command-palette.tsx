import {
  Spotlight,
  type SpotlightActionData,
  type SpotlightActionGroupData,
  type SpotlightSearchProps,
} from '@mantine/spotlight';
import { IconSearch } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useFirmsStore } from '../features/firms';
import { usePresetsStore } from '../features/presets';
import { useSearchStore } from '../features/search';
import { useWatchStore } from '../features/watch';
import { showDataset, useSessionStore } from '../session';
import { useColorSchemeChoice } from '../theme';
import { handleCommand } from './commands';
import { paletteActions, type PaletteAction } from './palette-actions';
import { PALETTE_SEARCH, usePaletteStore } from './palette-store';
import { ShortcutKeys } from './shortcut-keys';

/** Spotlight passes other props on to the element: a test id among them. */
type TestId = { 'data-testid': string };

const searchProps: SpotlightSearchProps & TestId = {
  leftSection: <IconSearch size={16} stroke={1.6} />,
  placeholder: 'Go to a page, a preset, a dataset or a command…',
  'aria-label': 'Command palette',
  'data-testid': PALETTE_SEARCH,
  // Spotlight selects the first entry only as the query changes, so entries listed after the analyst
  // typed (the library's datasets are read as the palette opens) had none selected and Enter did
  // nothing: it runs the first entry listed then, as it would have once they were there.
  onKeyDown: (event) => {
    if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
    const palette = event.currentTarget.closest('[role="dialog"]');
    if (!palette || palette.querySelector('[data-selected]')) return;
    palette.querySelector<HTMLElement>('[data-action]')?.click();
  },
};

function grouped(actions: PaletteAction[], chosen: (run: () => void) => void): SpotlightActionGroupData[] {
  const groups = new Map<string, SpotlightActionGroupData>();
  for (const a of actions) {
    const g = groups.get(a.group) ?? { group: a.group, actions: [] };
    const action: SpotlightActionData & TestId = {
      id: a.id,
      label: a.label,
      description: a.description,
      keywords: a.keywords,
      rightSection: a.shortcut ? <ShortcutKeys keys={a.shortcut} /> : undefined,
      onClick: () => chosen(() => a.run()),
      'data-testid': `palette-${a.id}`,
    };
    g.actions.push(action);
    groups.set(a.group, g);
  }
  return [...groups.values()];
}

/**
 * The command palette (Ctrl/⌘+K, or View → Command Palette…): pages, commands with their shortcuts,
 * presets, datasets and the theme, found by typing. It opens through the command table's
 * `command-palette` command, from the menu in Electron and from the keyboard in the browser host.
 */
export function CommandPalette() {
  const presets = usePresetsStore((s) => s.presets);
  const datasets = usePaletteStore((s) => s.datasets);
  const watches = useWatchStore((s) => s.watches);
  const platform = useSessionStore((s) => s.appInfo?.platform ?? '');
  const unsavedRecords = useSearchStore((s) => s.saveFailure?.records ?? null);
  const shipmentsRunning = useSearchStore((s) => s.status === 'running');
  const firmsRunning = useFirmsStore((s) => s.status === 'running');
  const runningSearch = shipmentsRunning ? 'shipments' : firmsRunning ? 'firms' : null;
  const { setChoice } = useColorSchemeChoice();
  const actions = useMemo(
    () =>
      grouped(
        paletteActions(
          { presets, datasets, watches, platform, unsavedRecords, runningSearch },
          {
            command: handleCommand,
            loadPreset: (id) => {
              usePresetsStore.getState().useInForm(id);
              useSessionStore.getState().showPage('search');
            },
            openDataset: (id) => showDataset(id),
            refreshWatch: (id) => {
              useSessionStore.getState().showPage('watched');
              const watch = useWatchStore.getState();
              void watch.select(id).then(() => watch.checkCost());
            },
            watchDataset: (id) => void useWatchStore.getState().watchDataset(id),
            setColorScheme: setChoice,
            saveAgain: () => {
              useSessionStore.getState().showPage('search');
              void useSearchStore.getState().saveAgain();
            },
            cancelSearch: (kind) =>
              kind === 'firms' ? useFirmsStore.getState().cancel() : useSearchStore.getState().cancel(),
          },
        ),
        (run) => usePaletteStore.getState().choose(run),
      ),
    [presets, datasets, watches, platform, unsavedRecords, runningSearch, setChoice],
  );
  return (
    <Spotlight
      actions={actions}
      // The command table's Ctrl/⌘+K opens it (app/commands.ts), as the menu shows.
      shortcut={null}
      highlightQuery
      scrollable
      maxHeight={440}
      nothingFound="Nothing matches: try a page, a preset, a dataset or a command"
      // The store gives the focus back where it was when the palette is closed without a choice, and
      // leaves it to a chosen entry that moves it (Edit Filter puts it in the filter's first field).
      returnFocus={false}
      onSpotlightOpen={() => void usePaletteStore.getState().refresh()}
      onSpotlightClose={() => usePaletteStore.getState().closed()}
      onExitTransitionEnd={() => usePaletteStore.getState().exited()}
      searchProps={searchProps}
    />
  );
}

import type { AppCommand } from '@shared/app/app-contract';
import { APP_COMMANDS, shortcutKeys } from '@shared/app/command-table';
import type { DatasetView } from '@shared/library/library-contract';
import { whyNotWatchable } from '@shared/watch/watch-contract';
import { COLOR_SCHEME_CHOICES, type ColorSchemeChoice } from '../theme';

export type PaletteGroup =
  'Pages' | 'Commands' | 'Review queue' | 'Presets' | 'Watched queries' | 'Datasets' | 'Appearance';

/** One entry of the command palette. */
export interface PaletteAction {
  id: string;
  group: PaletteGroup;
  label: string;
  description?: string;
  keywords?: string[];
  /** The keys of its shortcut (the same as in the menu), when it has one. */
  shortcut?: string[];
  run(): void;
}

export interface PaletteSources {
  presets: readonly { id: string; name: string }[];
  datasets: readonly DatasetView[];
  /** The watched queries, each refreshed from the palette; their datasets are not offered to watch again. */
  watches: readonly { id: string; name: string; datasetId: string }[];
  platform: string;
  /** The Search answer's records kept in memory because the library could not store them, if any. */
  unsavedRecords?: number | null;
  /** The search waiting for its answer, if any: a shipment search (Search) or a firm search (Firms). */
  runningSearch?: 'shipments' | 'firms' | null;
}

export interface PaletteRunners {
  command(cmd: AppCommand): void;
  loadPreset(id: string): void;
  openDataset(id: string): void;
  /** Shows the watched query on its page and prices its refresh (nothing is fetched before Confirm). */
  refreshWatch(id: string): void;
  /** Watches a library dataset (its rows the first snapshot) and shows it on the Watched page. */
  watchDataset(id: string): void;
  setColorScheme(choice: ColorSchemeChoice): void;
  /** Stores the kept Search answer again (Search's "Save again"). */
  saveAgain?(): void;
  /** Cancels the running search, as its Cancel button and Escape do. */
  cancelSearch?(kind: 'shipments' | 'firms'): void;
}

const fmt = (n: number) => n.toLocaleString('en-US');

function describeDataset(d: DatasetView): string {
  const day = d.fetchedAt.slice(0, 10);
  const kind = d.kind === 'firms' ? 'Firms' : 'Shipments';
  const how = d.source === 'import' ? 'imported' : 'fetched';
  return `${kind} · ${fmt(d.storedRows)} ${d.storedRows === 1 ? 'row' : 'rows'} · ${how} ${day}`;
}

/**
 * What the command palette lists: the pages and the commands of the menu (with the menu's shortcuts,
 * from the one command table; the review queue's keys among them), the saved presets, a refresh of each
 * watched query, the library's datasets and the colour schemes.
 */
export function paletteActions(src: PaletteSources, run: PaletteRunners): PaletteAction[] {
  const commands = APP_COMMANDS.filter((c) => c.command.command !== 'command-palette').map(
    (c): PaletteAction => ({
      id: c.id,
      group: c.command.command === 'navigate' ? 'Pages' : c.menu === 'review' ? 'Review queue' : 'Commands',
      label: c.label,
      description: c.description,
      shortcut: c.accelerator ? shortcutKeys(c.accelerator, src.platform) : undefined,
      run: () => run.command(c.command),
    }),
  );
  // Offered while there is something to save: the same as the Search page's Save again.
  const saveAgain = run.saveAgain;
  const unsaved =
    src.unsavedRecords && saveAgain
      ? [
          {
            id: 'search-save-again',
            group: 'Commands' as const,
            label: "Save the search's answer again",
            description: `Stores the ${fmt(src.unsavedRecords)} records kept in memory in the Library; nothing is downloaded again`,
            keywords: ['save', 'again', 'retry', 'library', 'unsaved'],
            run: saveAgain,
          },
        ]
      : [];
  // Offered while a search runs, with the key that does the same on its page.
  const cancelSearch = run.cancelSearch;
  const running = src.runningSearch;
  const cancel =
    running && cancelSearch
      ? [
          {
            id: 'search-cancel',
            group: 'Commands' as const,
            label:
              running === 'firms' ? 'Cancel the running firm search' : 'Cancel the running shipment search',
            description: 'Stops waiting for its answer; an answer already on its way is kept in the Library',
            keywords: ['cancel', 'stop', 'search'],
            shortcut: ['Esc'],
            run: () => cancelSearch(running),
          },
        ]
      : [];
  const presets = src.presets.map((p): PaletteAction => ({
    id: `preset-${p.id}`,
    group: 'Presets',
    label: p.name,
    description: 'Load this preset into the Search filter',
    keywords: ['preset', 'filter'],
    run: () => run.loadPreset(p.id),
  }));
  const watches = src.watches.map((w): PaletteAction => ({
    id: `watch-${w.id}`,
    group: 'Watched queries',
    label: `Refresh ${w.name}`,
    description: 'Show what fetching the new records would cost, then fetch them on Confirm',
    keywords: ['watch', 'refresh', 'snapshot', w.name],
    run: () => run.refreshWatch(w.id),
  }));
  const watched = new Set(src.watches.map((w) => w.datasetId));
  // Only what can be watched: why another cannot is said by the Library header's Watch button.
  const toWatch = src.datasets
    .filter((d) => !watched.has(d.id) && whyNotWatchable(d) === null)
    .map((d): PaletteAction => ({
      id: `watch-dataset-${d.id}`,
      group: 'Watched queries',
      label: `Watch ${d.name}`,
      description: `${describeDataset(d)} · its rows are the first snapshot, nothing is downloaded`,
      // Not 'dataset': typing it looks for a dataset to open, and Enter must not start a watch instead.
      keywords: ['watch', 'snapshot', d.name],
      run: () => run.watchDataset(d.id),
    }));
  const datasets = src.datasets.map((d): PaletteAction => ({
    id: `dataset-${d.id}`,
    group: 'Datasets',
    label: d.name,
    description: describeDataset(d),
    keywords: ['dataset', 'library', ...d.tags],
    run: () => run.openDataset(d.id),
  }));
  const schemes = COLOR_SCHEME_CHOICES.map((c): PaletteAction => ({
    id: `scheme-${c.value}`,
    group: 'Appearance',
    label: `Theme: ${c.label}`,
    keywords: ['theme', 'dark', 'light', 'appearance'],
    run: () => run.setColorScheme(c.value),
  }));
  return [
    ...commands.filter((a) => a.group === 'Pages'),
    ...commands.filter((a) => a.group === 'Commands'),
    ...cancel,
    ...unsaved,
    ...commands.filter((a) => a.group === 'Review queue'),
    ...presets,
    ...watches,
    // Opening a dataset comes before watching it: a dataset's name finds both, and Enter takes the first.
    ...datasets,
    ...toWatch,
    ...schemes,
  ];
}

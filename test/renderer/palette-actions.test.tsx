import { describe, expect, it, vi } from 'vitest';
import type { AppCommand } from '@shared/app/app-contract';
import type { DatasetView } from '@shared/library/library-contract';
import { PAGES } from '@shared/pages';
import { paletteActions } from '../../src/renderer/src/app/palette-actions';

const dataset = (id: string, name: string, extra: Partial<DatasetView> = {}): DatasetView => ({
  id,
  name,
  kind: 'shipments',
  request: {},
  profileId: null,
  profileName: null,
  account: null,
  fetchedAt: '2026-03-04T10:00:00.000Z',
  reportedTotal: null,
  storedRows: 12_345,
  notes: '',
  tags: ['steel'],
  status: 'complete',
  windows: null,
  reported: null,
  source: 'fetch',
  ...extra,
});

/** The palette's runners, each a spy; `extra` adds the optional ones a test needs. */
function runners<T extends object>(extra: T) {
  return {
    command: vi.fn<(c: AppCommand) => void>(),
    loadPreset: vi.fn<(id: string) => void>(),
    openDataset: vi.fn<(id: string) => void>(),
    refreshWatch: vi.fn<(id: string) => void>(),
    watchDataset: vi.fn<(id: string) => void>(),
    setColorScheme: vi.fn(),
    ...extra,
  };
}

function setup(platform = 'linux') {
  const run = runners({});
  const actions = paletteActions(
    {
      presets: [{ id: 'p1', name: 'German steel' }],
      datasets: [
        dataset('d1', 'Steel 2024'),
        dataset('d2', 'Firms DE', { kind: 'firms', storedRows: 1, source: 'import' }),
        dataset('d3', 'Steel into Turkey'),
        dataset('d4', 'From a file', { source: 'import' }),
      ],
      watches: [{ id: 'w1', name: 'Steel into Turkey', datasetId: 'd3' }],
      platform,
    },
    run,
  );
  return { run, actions };
}

describe('command palette entries', () => {
  it("offers Search's Save again only while an answer is kept unsaved", () => {
    const saveAgain = vi.fn();
    const run = runners({ saveAgain });
    const base = { presets: [], datasets: [], watches: [], platform: 'linux' };
    expect(paletteActions(base, run).find((a) => a.id === 'search-save-again')).toBeUndefined();
    const entry = paletteActions({ ...base, unsavedRecords: 2500 }, run).find(
      (a) => a.id === 'search-save-again',
    );
    expect(entry).toMatchObject({
      group: 'Commands',
      label: "Save the search's answer again",
      description: 'Stores the 2,500 records kept in memory in the Library; nothing is downloaded again',
    });
    entry?.run();
    expect(saveAgain).toHaveBeenCalledTimes(1);
  });

  it('lists pages, then commands, presets, datasets and the theme, in that order', () => {
    const { actions } = setup();
    const groups = [...new Set(actions.map((a) => a.group))];
    expect(groups).toEqual([
      'Pages',
      'Commands',
      'Review queue',
      'Presets',
      'Watched queries',
      'Datasets',
      'Appearance',
    ]);
    expect(actions.filter((a) => a.group === 'Pages').map((a) => a.label)).toEqual(
      PAGES.map((p) => p.menuLabel),
    );
    expect(actions.filter((a) => a.group === 'Commands').map((a) => a.label)).toEqual([
      'Run Search',
      'Edit Filter',
      'Import a File…',
      'New Profile…',
      'Refresh Usage',
      'Keyboard Shortcuts',
    ]);
  });

  it('shows each command’s shortcut as the menu has it, per platform', () => {
    const linux = setup('linux').actions;
    expect(linux.find((a) => a.id === 'run-search')?.shortcut).toEqual(['Ctrl', 'Enter']);
    expect(linux.find((a) => a.id === 'go-search')?.shortcut).toEqual(['Ctrl', '1']);
    const mac = setup('darwin').actions;
    expect(mac.find((a) => a.id === 'focus-filter')?.shortcut).toEqual(['⌘', 'L']);
    expect(linux.find((a) => a.id === 'preset-p1')?.shortcut).toBeUndefined();
    // The review queue's keys, as the Firms menu shows them.
    expect(
      linux.filter((a) => a.group === 'Review queue').map((a) => [a.label, a.shortcut?.join('+')]),
    ).toEqual([
      ['Same Firm', 'A'],
      ['Different Firms', 'R'],
      ['Next Pair', '↓'],
      ['Previous Pair', '↑'],
      ['Undo Last Verdict', 'Ctrl+Z'],
    ]);
    expect(mac.find((a) => a.id === 'review-undo')?.shortcut).toEqual(['⌘', 'Z']);
  });

  it('runs what each entry names', () => {
    const { actions, run } = setup();
    actions.find((a) => a.id === 'go-library')?.run();
    expect(run.command).toHaveBeenLastCalledWith({ command: 'navigate', target: 'library' });
    actions.find((a) => a.id === 'run-search')?.run();
    expect(run.command).toHaveBeenLastCalledWith({ command: 'run-search' });
    actions.find((a) => a.id === 'preset-p1')?.run();
    expect(run.loadPreset).toHaveBeenCalledWith('p1');
    actions.find((a) => a.id === 'dataset-d2')?.run();
    expect(run.openDataset).toHaveBeenCalledWith('d2');
    const refresh = actions.find((a) => a.id === 'watch-w1');
    expect(refresh?.label).toBe('Refresh Steel into Turkey');
    refresh?.run();
    expect(run.refreshWatch).toHaveBeenCalledWith('w1');
    actions.find((a) => a.id === 'scheme-dark')?.run();
    expect(run.setColorScheme).toHaveBeenCalledWith('dark');
  });

  it('offers to watch each fetched shipment dataset not watched yet, and nothing else', () => {
    const { actions, run } = setup();
    const offered = actions.filter((a) => a.id.startsWith('watch-dataset-'));
    expect(offered.map((a) => [a.label, a.group])).toEqual([['Watch Steel 2024', 'Watched queries']]);
    offered[0]!.run();
    expect(run.watchDataset).toHaveBeenCalledWith('d1');
    expect(run.refreshWatch).not.toHaveBeenCalled();
  });

  it('lists opening a dataset before watching it, and "dataset" finds the datasets, not the watches', () => {
    const { actions } = setup();
    const ids = actions.map((a) => a.id);
    expect(ids.indexOf('dataset-d1')).toBeLessThan(ids.indexOf('watch-dataset-d1'));
    const findsDataset = actions.filter((a) => a.keywords?.includes('dataset')).map((a) => a.id);
    expect(findsDataset.length).toBeGreaterThan(0);
    expect(findsDataset.every((id) => id.startsWith('dataset-'))).toBe(true);
  });

  it('describes a dataset by kind, size, source and day, and finds it by its tags', () => {
    const { actions } = setup();
    expect(actions.find((a) => a.id === 'dataset-d1')).toMatchObject({
      label: 'Steel 2024',
      description: 'Shipments · 12,345 rows · fetched 2026-03-04',
    });
    expect(actions.find((a) => a.id === 'dataset-d1')?.keywords).toContain('steel');
    expect(actions.find((a) => a.id === 'dataset-d2')?.description).toBe(
      'Firms · 1 row · imported 2026-03-04',
    );
  });
});

describe('command palette: cancelling a running search', () => {
  it('offers Cancel, with its Escape key, only while a search runs, and cancels that search', () => {
    const cancelSearch = vi.fn<(kind: 'shipments' | 'firms') => void>();
    const run = runners({ cancelSearch });
    const base = { presets: [], datasets: [], watches: [], platform: 'linux' };
    const find = (runningSearch: 'shipments' | 'firms' | null) =>
      paletteActions({ ...base, runningSearch }, run).find((a) => a.id === 'search-cancel');
    expect(find(null)).toBeUndefined();
    const firms = find('firms');
    expect(firms).toMatchObject({
      group: 'Commands',
      label: 'Cancel the running firm search',
      shortcut: ['Esc'],
    });
    firms?.run();
    expect(cancelSearch).toHaveBeenCalledWith('firms');
    expect(find('shipments')?.label).toBe('Cancel the running shipment search');
  });
});

// @vitest-environment jsdom
import { act, cleanup, configure, fireEvent, render, screen, waitFor, within } from './render';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EventChannel } from '@shared/ipc/channels';
import type { BridgeResult } from '@shared/ipc/errors';
import type {
  DecisionView,
  FirmListView,
  FirmSummaryView,
  ReviewListView,
} from '@shared/resolution/resolution-contract';
import { setApi } from '../../src/renderer/src/bridge/api';
import { FirmsPage } from '../../src/renderer/src/features/firms/firms-page';
import { diffDecisions } from '../../src/renderer/src/features/firms/decision-change';
import { describeEvidence, linksBySpelling } from '../../src/renderer/src/features/firms/evidence-text';
import { firmSortOf } from '../../src/renderer/src/features/firms/firm-list';
import {
  connectResolvedFirmsStore,
  mergeReason,
  splitReason,
  useResolvedFirmsStore,
} from '../../src/renderer/src/features/firms/resolved-firms-store';
import { reviewKey } from '../../src/renderer/src/features/firms/review-keys';
import { connectReviewStore } from '../../src/renderer/src/features/firms/review-store';
import {
  connectAnalysisStore,
  useAnalysisStore,
} from '../../src/renderer/src/features/analysis/analysis-store';
import { connectResolutionStore, useResolutionStore } from '../../src/renderer/src/session/resolution-store';
import { resetAllStores } from '../../src/renderer/src/store';
import { fakeBridge, type FakeBridge } from './fake-bridge';

/**
 * The Firms page's resolved firms over the real resolution and analysis handlers (a DuckDB library of
 * importers written several ways), reached through the real dispatcher in process, with main's
 * `resolution.changed` announcements delivered as the bridge delivers them.
 */
interface Backend {
  invoke(channel: string, input: unknown): Promise<BridgeResult<unknown>>;
  onEvent(listener: (event: EventChannel, payload: unknown) => void): void;
  datasetId: string;
  close(): Promise<void>;
}

// Each decision resolves the library again in DuckDB: give the page time on a loaded machine.
configure({ asyncUtilTimeout: 20_000 });
/**
 * A test here makes several round trips that each resolve the library again (a decision, its undo)
 * while jsdom renders the page's grid on the same thread: under a full test run that takes tens of
 * seconds. Its budget must hold several of those, not one waitFor's worth (the default 20 s equals
 * asyncUtilTimeout, so one slow wait used it all).
 */
const PAGE_TEST_TIMEOUT = 120_000;

let backend: Backend;
let bridge: FakeBridge;
let disconnect: (() => void)[] = [];
const firms = () => useResolvedFirmsStore.getState();

async function call<T>(channel: string, input?: unknown): Promise<T> {
  const r = await backend.invoke(channel, input);
  if (!r.ok) throw new Error(r.error.message);
  return r.value as T;
}
const list = (search = '') =>
  call<FirmListView>('resolution.firms', { scope: {}, ...(search ? { search } : {}), limit: 100 });
const firmNamed = async (search: string): Promise<FirmSummaryView> => (await list(search)).firms[0]!;
const decisions = () => call<DecisionView[]>('resolution.decisions');

let startFirmsPageBackend: () => Promise<Backend>;
beforeAll(async () => {
  const path = new URL('../library/firms-page-backend.ts', import.meta.url).pathname;
  ({ startFirmsPageBackend } = (await import(/* @vite-ignore */ path)) as {
    startFirmsPageBackend(): Promise<Backend>;
  });
  // jsdom cannot save files: the alias list's download link is recorded instead.
  HTMLAnchorElement.prototype.click = function click(this: HTMLAnchorElement) {
    saved.push({ name: this.download, href: this.href });
  };
});
const saved: { name: string; href: string }[] = [];

describe('Firms page: the library’s resolved firms', { timeout: PAGE_TEST_TIMEOUT }, () => {
  /**
   * Each test has a library and a bridge of its own: a test that ran out of time leaves its decisions
   * and its last round trip, still under way, behind in its own library, not in the next test's.
   */
  beforeEach(async () => {
    resetAllStores();
    backend = await startFirmsPageBackend();
    bridge = fakeBridge({}, { fallback: (c, i) => backend.invoke(c, i), checkInputs: false });
    backend.onEvent((event, payload) => bridge.emit(event as 'resolution.changed', payload as never));
    setApi(bridge.api);
    // Resolved here, in the hook's budget: otherwise the test's first read pays for it.
    await call('resolution.run');
    disconnect = [
      connectResolutionStore(),
      connectResolvedFirmsStore(),
      connectReviewStore(),
      connectAnalysisStore(),
    ];
    bridge.log.length = 0;
  });
  afterEach(async () => {
    for (const off of disconnect) off();
    cleanup();
    await backend.close();
  });

  it('lists the firms and opens one: its spellings, the evidence that joined them, where its shipments are', async () => {
    render(<FirmsPage />);
    // The grid asks for its first block (jsdom draws no rows, so the test asks as the grid would).
    await act(() => firms().fetchBlock({ offset: 0, limit: 200, sort: 'rows' }));
    // Four spellings of Acme are one firm; Apex and its typo stay apart (their tax ids differ).
    await waitFor(() => expect(screen.getByTestId('firms-total').getAttribute('data-total')).toBe('5'));
    const acme = await firmNamed('acme');
    await act(() => firms().openFirm(acme.firmId));
    const detail = await screen.findByTestId('firm-detail');
    await waitFor(() => expect(detail.getAttribute('data-loading')).toBe('false'));
    expect(within(detail).getByTestId('firm-detail-name').textContent).toBe('Acme Co Ltd');
    const names = within(detail)
      .getAllByTestId(/^firm-spelling-name-/)
      .map((e) => e.textContent);
    expect(names).toEqual([
      'Acme Co Ltd',
      'ACME COMPANY LIMITED',
      'ACME CO., LTD.',
      'Acme Co Ltd (Shanghai)',
    ]);
    expect(within(detail).getByTestId('firm-detail-summary').textContent).toContain(
      'China · 4 spellings · 10 as importer · 0 as exporter',
    );
    // Each spelling is linked by its rule and says what matched.
    const rules = within(detail)
      .getAllByTestId(/^firm-evidence-rule-/)
      .map((e) => e.textContent);
    expect(rules).toHaveLength(3);
    expect(new Set(rules)).toEqual(new Set(['same name']));
    expect(within(detail).getByTestId('firm-evidence-0').textContent).toContain('both read “acme”');
    // Its shipments: the one dataset, with all ten rows of its spellings.
    const open = within(detail).getByTestId('firm-detail-open-0');
    expect(open.textContent).toBe('Open 10 shipments');
    expect(open.getAttribute('data-rows')).toBe('10');
  });

  it('merges two firms after a confirmation that names them, then Undo puts the decisions back as they were', async () => {
    render(<FirmsPage />);
    const acme = await firmNamed('acme');
    const blue = await firmNamed('blue river');
    expect(screen.getByTestId('firms-merge')).toHaveProperty('disabled', true);
    act(() => firms().setMarked([acme, blue]));
    expect(screen.getByTestId('firms-merge').textContent).toBe('Merge 2 firms…');
    fireEvent.click(screen.getByTestId('firms-merge'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Acme Co Ltd (China, 4 spellings, 10 shipments)');
    expect(dialog.textContent).toContain('Blue River Foods (China, 1 spelling, 2 shipments)');
    const version = useResolutionStore.getState().version;
    fireEvent.click(screen.getByTestId('firms-confirm-ok'));
    await waitFor(() =>
      expect(screen.getByTestId('firms-last-change').textContent).toContain(
        'Merged 2 firms into “Acme Co Ltd”',
      ),
    );
    // Main announced the new resolution; the list counts one firm fewer, the merged firm is open.
    expect(useResolutionStore.getState().version).toBeGreaterThan(version);
    await act(() => firms().fetchBlock({ offset: 0, limit: 200, sort: 'rows' }));
    await waitFor(() => expect(screen.getByTestId('firms-total').getAttribute('data-total')).toBe('4'));
    await waitFor(() =>
      expect(screen.getAllByTestId(/^firm-spelling-name-/).map((e) => e.textContent)).toContain(
        'Blue River Foods',
      ),
    );
    expect(
      screen.getAllByTestId(/^firm-evidence-/).some((e) => e.getAttribute('data-kind') === 'decision'),
    ).toBe(true);
    expect(await decisions()).toHaveLength(1);

    fireEvent.click(screen.getByTestId('firms-undo'));
    await waitFor(() => expect(screen.queryByTestId('firms-last-change')).toBeNull());
    expect(await decisions()).toEqual([]);
    await act(() => firms().fetchBlock({ offset: 0, limit: 200, sort: 'rows' }));
    await waitFor(() => expect(screen.getByTestId('firms-total').getAttribute('data-total')).toBe('5'));
  });

  it('splits a spelling off after a confirmation; a split that overrules a merge is undone to the merge', async () => {
    const acme = await firmNamed('acme');
    const blue = await firmNamed('blue river');
    await call('resolution.merge', { firmIds: [acme.firmId, blue.firmId] });
    const before = await decisions();
    render(<FirmsPage />);
    await act(() => firms().openFirm(acme.firmId));
    await waitFor(() => expect(screen.getAllByTestId(/^firm-spelling-name-/)).toHaveLength(5));
    const blueRow = screen
      .getAllByTestId(/^firm-spelling-name-/)
      .findIndex((e) => e.textContent === 'Blue River Foods');
    expect(splitReason(firms().detail.value, [])).toBe(
      'Tick the spellings to split off into a firm of their own.',
    );
    fireEvent.click(screen.getByTestId(`firm-spelling-tick-${blueRow}`));
    expect(screen.getByTestId('firm-split').textContent).toBe('Split off 1 spelling…');
    fireEvent.click(screen.getByTestId('firm-split'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('These spellings leave “Acme Co Ltd”');
    fireEvent.click(screen.getByTestId('firms-confirm-ok'));
    await waitFor(() =>
      expect(screen.getByTestId('firms-last-change').textContent).toContain(
        'Split “Blue River Foods” off “Acme Co Ltd” into a firm of its own',
      ),
    );
    await waitFor(() => expect(screen.getAllByTestId(/^firm-spelling-name-/)).toHaveLength(4));
    // The split overruled the merge's decision; undo takes the split's decisions back and restores it.
    expect((await decisions()).map((d) => d.id)).not.toContain(before[0]!.id);
    fireEvent.click(screen.getByTestId('firms-undo'));
    await waitFor(() => expect(screen.queryByTestId('firms-last-change')).toBeNull());
    const after = await decisions();
    expect(after.map((d) => [d.verdict, d.a, d.b, d.decidedAt])).toEqual(
      before.map((d) => [d.verdict, d.a, d.b, d.decidedAt]),
    );
    await waitFor(() => expect(screen.getAllByTestId(/^firm-spelling-name-/)).toHaveLength(5));
  });

  it('works the review queue with the keyboard, and counts it for the navigation', async () => {
    act(() => firms().setTab('review'));
    render(<FirmsPage />);
    const pair = await screen.findByTestId('review-pair');
    const queue = await call<ReviewListView>('resolution.review', { scope: {} });
    expect(queue.total).toBeGreaterThan(0);
    await waitFor(() => expect(useResolutionStore.getState().status?.review).toBe(queue.total));
    expect(screen.getByTestId('firms-tab-review-count').textContent).toBe(String(queue.total));
    const names = [
      screen.getByTestId('review-a-name').textContent,
      screen.getByTestId('review-b-name').textContent,
    ];
    expect(names.sort()).toEqual(['Apex Trading', 'Apex Tradinq']);
    expect(within(pair).getByTestId('review-evidence').textContent).toContain('similar name');

    // A key typed into a field is the field's.
    const field = document.createElement('input');
    document.body.append(field);
    fireEvent.keyDown(field, { key: 'r' });
    field.remove();
    expect(bridge.callsTo('resolution.decide')).toEqual([]);

    fireEvent.keyDown(window, { key: 'r' });
    await waitFor(() =>
      expect(screen.getByTestId('review-last').textContent).toContain('are different firms'),
    );
    const [decided] = await decisions();
    expect(decided?.verdict).toBe('different');
    await waitFor(() =>
      expect(screen.getByTestId('review-view').getAttribute('data-total')).toBe(String(queue.total - 1)),
    );
    await waitFor(() => expect(useResolutionStore.getState().status?.review).toBe(queue.total - 1));

    // Ctrl+Z takes the verdict back: the pair is in the queue again.
    fireEvent.keyDown(window, { key: 'z', ctrlKey: true });
    await waitFor(() => expect(screen.queryByTestId('review-last')).toBeNull());
    expect(await decisions()).toEqual([]);
    await waitFor(() =>
      expect(screen.getByTestId('review-view').getAttribute('data-total')).toBe(String(queue.total)),
    );

    fireEvent.keyDown(window, { key: 'a' });
    await waitFor(() => expect(screen.getByTestId('review-last').textContent).toContain('are one firm'));
    expect((await decisions())[0]?.verdict).toBe('same');
    expect((await firmNamed('apex')).spellings).toBe(2);
  });

  it('keeps Analysis by resolved firm in step: a merge reads the summaries again', async () => {
    act(() => useAnalysisStore.setState({ datasetId: backend.datasetId, firms: 'resolved' }));
    await act(() => useAnalysisStore.getState().loadSummaries());
    const top = () => useAnalysisStore.getState().summaries.importers?.value?.rows ?? [];
    expect(top()[0]?.label).toBe('Acme Co Ltd');
    expect(top()[0]?.shipments).toBe(10);
    bridge.log.length = 0;
    const apex = await firmNamed('apex trading');
    const acme = await firmNamed('acme');
    act(() => firms().setMarked([acme, apex]));
    act(() => firms().askMerge());
    await act(() => firms().confirmPending());
    await waitFor(() => expect(top()[0]?.shipments).toBe(15));
    expect(bridge.callsTo('analysis.summary').length).toBeGreaterThan(0);
    // Firms as written are not resolved: nothing to read again.
    act(() => useAnalysisStore.setState({ firms: 'asWritten' }));
    bridge.log.length = 0;
    await act(() => firms().undoLast());
    expect(bridge.callsTo('analysis.summary')).toEqual([]);
  });

  it('exports the decisions as an alias list file and imports one, saying what it added', async () => {
    const acme = await firmNamed('acme');
    const blue = await firmNamed('blue river');
    await call('resolution.merge', { firmIds: [acme.firmId, blue.firmId] });
    await act(() => firms().exportAliases());
    const file = saved.at(-1)!;
    expect(file.name).toMatch(/^portolan-firm-aliases-\d{4}-\d{2}-\d{2}\.json$/);
    const text = decodeURIComponent(file.href.slice(file.href.indexOf(',') + 1));
    const parsed = JSON.parse(text) as { decisions: { a: Record<string, string> }[] };
    expect(parsed.decisions).toHaveLength(1);
    expect(Object.keys(parsed.decisions[0]!.a).sort()).toEqual(['code', 'country', 'name']);
    expect(firms().aliasNotice).toEqual({ ok: true, text: `Saved 1 decision as ${file.name}` });

    for (const d of await decisions()) await call('resolution.undo', { decisionId: d.id });
    await act(() => firms().importAliases({ name: 'aliases.json', text: async () => text }));
    expect(firms().aliasNotice).toEqual({ ok: true, text: 'aliases.json: added 1 decision' });
    expect(await decisions()).toHaveLength(1);
    await act(() => firms().importAliases({ name: 'notes.txt', text: async () => 'hello' }));
    expect(firms().aliasNotice).toEqual({
      ok: false,
      text: 'notes.txt: That file is not a Portolan alias list (it is not JSON).',
    });
  });
});

describe('Firms page: the rules behind the screens', () => {
  const key = (
    k: string,
    mods: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey', boolean>> = {},
  ) =>
    reviewKey({
      key: k,
      ctrlKey: false,
      metaKey: false,
      altKey: false,
      shiftKey: false,
      target: null,
      ...mods,
    });

  it('maps the review keys, and leaves keys with other modifiers alone', () => {
    expect([key('a'), key('A'), key('r'), key('R')]).toEqual(['same', 'same', 'different', 'different']);
    expect([key('ArrowDown'), key('ArrowRight'), key('ArrowUp'), key('ArrowLeft')]).toEqual([
      'next',
      'next',
      'previous',
      'previous',
    ]);
    expect([key('z', { ctrlKey: true }), key('z', { metaKey: true })]).toEqual(['undo', 'undo']);
    expect([key('a', { ctrlKey: true }), key('r', { altKey: true }), key('z'), key('Enter')]).toEqual([
      null,
      null,
      null,
      null,
    ]);
  });

  it('says each kind of evidence in the analyst’s words', () => {
    expect(describeEvidence({ kind: 'tax', value: '913100001', score: 1 })).toEqual({
      rule: 'same tax id',
      matched: 'tax id 913100001',
    });
    expect(describeEvidence({ kind: 'phone', value: '212555014', score: 0.8 })).toEqual({
      rule: 'same telephone',
      matched: 'telephone ending 212555014; names 80% alike',
    });
    expect(
      describeEvidence({ kind: 'similar', value: 'apex trading ~ apex tradinq', score: 0.967 }).matched,
    ).toBe('names 97% alike (apex trading ~ apex tradinq)');
    expect(describeEvidence({ kind: 'decision', value: 'x', score: 1 }).rule).toBe('your decision');
    expect(
      linksBySpelling([
        { a: 'p1', b: 'p2', kind: 'name', value: 'acme', score: 1 },
        { a: 'p2', b: 'p3', kind: 'tax', value: '1', score: 1 },
      ]).get('p2'),
    ).toEqual(['name', 'tax']);
  });

  it('tells what a decision added and overruled, sorts as the library can, and says why merge or split is off', () => {
    const d = (id: string): DecisionView => ({
      id,
      verdict: 'same',
      a: { country: 'CN', name: id, code: '' },
      b: { country: 'CN', name: `${id}2`, code: '' },
      decidedAt: '2026-01-01T00:00:00.000Z',
    });
    expect(diffDecisions([d('a'), d('b')], [d('b'), d('c')])).toEqual({ added: ['c'], removed: [d('a')] });
    expect(firmSortOf([{ colId: 'name', sort: 'asc' }])).toBe('name');
    expect(firmSortOf([{ colId: 'spellings', sort: 'desc' }])).toBe('spellings');
    expect(firmSortOf([])).toBe('rows');
    expect(mergeReason([])).toBe('Tick two or more firms in the list to merge them.');
    expect(splitReason(null, [])).toBe('Open a firm first.');
  });
});

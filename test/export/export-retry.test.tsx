// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '../renderer/render';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setApi } from '../../src/renderer/src/bridge/api';
import { ExportButton } from '../../src/renderer/src/features/export/export-button';
import { fakeBridge, type FakeBridge } from '../renderer/fake-bridge';
import type { ExportBackend } from './export-backend';

/**
 * A failed export offers Try again (the same export, same settings, same file) and, where the folder
 * was the problem, another folder: against the real export handlers, a real library and a folder that
 * really refuses writes (immutable, so even root cannot write there).
 */
let backend: ExportBackend;
let bridge: FakeBridge;

beforeAll(async () => {
  // Loaded by path so this DOM-typed file does not pull main-process types into the renderer's type check.
  const backendPath = new URL('./export-retry-backend.ts', import.meta.url).pathname;
  const mod = (await import(/* @vite-ignore */ backendPath)) as {
    startExportBackend(): Promise<ExportBackend>;
  };
  backend = await mod.startExportBackend();
  bridge = fakeBridge(
    {},
    {
      fallback: (c, i) => backend.invoke(c, i),
      checkInputs: false,
      subscribe: (event, listener) => backend.subscribe(event, listener),
    },
  );
  setApi(bridge.api);
  backend.subscribe('jobs.finished', () => (finished += 1));
}, 60_000);
afterAll(async () => {
  cleanup();
  await backend?.close();
});
afterEach(cleanup);

let finished = 0;
/** Runs `act`, then waits for the export it starts to end and the dialog to show how. */
async function untilFinished(act: () => void): Promise<void> {
  const before = finished;
  act();
  await waitFor(() => expect(finished).toBe(before + 1), { timeout: 20_000 });
  await waitFor(() => expect(step()).toBe('done'));
}

const step = () => screen.getByTestId('export-dialog').getAttribute('data-step');
const outcome = () => screen.getByTestId('export-done').getAttribute('data-outcome');
const starts = () => bridge.callsTo('export.start');

async function failedCsvExportInto(folder: string): Promise<void> {
  render(<ExportButton source={{ datasetId: backend.datasetId }} suggestedName="Steel" />);
  fireEvent.click(screen.getByTestId('export-open'));
  fireEvent.click(screen.getByTestId('export-format-csv'));
  backend.saveDialogAnswers.push(`${folder}/steel.csv`);
  fireEvent.click(screen.getByTestId('export-choose'));
  await waitFor(() => expect(screen.getByTestId('export-path').textContent).toBe(`${folder}/steel.csv`));
  await untilFinished(() => fireEvent.click(screen.getByTestId('export-start')));
  expect(outcome()).toBe('failed');
}

describe.runIf(process.getuid?.() === 0)('a failed export', () => {
  it('Try again exports the same again: refused while the folder refuses, written once it lets it', async () => {
    if (!backend.canFreeze) throw new Error('this machine cannot make a folder refuse writes (chattr)');
    const out = await backend.folder('read-only');
    backend.freeze(out);
    await failedCsvExportInto(out);
    expect(screen.getByTestId('export-done').textContent).toContain(
      'Portolan may not write to that folder (it is read-only, or its permissions deny it), or the file is open in another program. No file was written.',
    );
    // The system's own words only as the small detail under them.
    expect(screen.getByTestId('export-message').textContent).not.toContain('EPERM');
    expect(screen.getByTestId('system-detail').textContent).toMatch(
      /^The system said: EPERM: operation not permitted, open '.*\.partial'$/,
    );
    // Not only Close: Try again (the primary action, with the focus, so Enter runs it) and another folder.
    const again = screen.getByTestId('export-try-again');
    expect(document.activeElement).toBe(again);
    expect(screen.getByTestId('export-another-folder')).toBeTruthy();
    expect(screen.getByTestId('export-close')).toBeTruthy();

    await untilFinished(() => fireEvent.click(again));
    expect(outcome()).toBe('failed');
    expect(starts()).toHaveLength(2);
    // The same export, to the same file (its handle), with the same settings.
    expect(starts()[1]).toEqual(starts()[0]);
    expect(starts()[0]).toMatchObject({ format: 'csv', source: { datasetId: backend.datasetId } });

    backend.thaw(out);
    await untilFinished(() => fireEvent.click(screen.getByTestId('export-try-again')));
    expect(outcome()).toBe('succeeded');
    expect(starts()[2]).toEqual(starts()[0]);
    expect(await backend.files(out)).toEqual(['steel.csv']);
    const lines = (await backend.read(`${out}/steel.csv`)).trim().split(/\r?\n/);
    expect(lines).toHaveLength(backend.rows + 1);
  });

  it('Choose another folder… asks where, then exports the same there', async () => {
    const out = await backend.folder('read-only-2');
    const elsewhere = await backend.folder('elsewhere');
    backend.freeze(out);
    await failedCsvExportInto(out);
    const before = starts().length;

    // A cancelled save dialog changes nothing: the failure and its choices stay.
    const asked = bridge.callsTo('export.chooseTarget').length;
    backend.saveDialogAnswers.push(null);
    fireEvent.click(screen.getByTestId('export-another-folder'));
    await waitFor(() => expect(bridge.callsTo('export.chooseTarget')).toHaveLength(asked + 1));
    await waitFor(() =>
      expect((screen.getByTestId('export-another-folder') as HTMLButtonElement).disabled).toBe(false),
    );
    expect(step()).toBe('done');
    expect(outcome()).toBe('failed');
    expect(starts()).toHaveLength(before);

    backend.saveDialogAnswers.push(`${elsewhere}/steel.csv`);
    await untilFinished(() => fireEvent.click(screen.getByTestId('export-another-folder')));
    expect(outcome()).toBe('succeeded');
    expect(starts()).toHaveLength(before + 1);
    const [first, last] = [starts()[before - 1]!, starts()[before]!];
    expect(last.target).not.toBe(first.target);
    expect({ ...last, target: first.target }).toEqual(first);
    expect(await backend.files(elsewhere)).toEqual(['steel.csv']);
    expect(await backend.files(out)).toEqual([]);
    backend.thaw(out);
  });
});

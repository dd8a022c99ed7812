// @vitest-environment jsdom
import { act, cleanup, render, screen } from './render';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setApi } from '../../src/renderer/src/bridge/api';
import { FetchAllDialog } from '../../src/renderer/src/features/jobs/fetch-all-dialog';
import { useJobsStore } from '../../src/renderer/src/features/jobs/jobs-store';
import { fakeBridge, ok } from './fake-bridge';
import { jobEstimate } from './fake-main';

const estimate = jobEstimate();

const refusal = {
  kind: 'Forbidden' as const,
  message:
    'Portolan may not write to its data folder: the folder or its library file was made read-only, or its permissions changed. What was saved before is intact; make the folder writable again, then try again.',
};
const bridge = fakeBridge({
  'library.findEquivalent': () => ok(null),
  'jobs.estimate': () => ok(estimate),
  'jobs.list': () => ok({ running: [], resumable: [] }),
  'jobs.start': () => ({ ok: false, error: refusal }),
});
const starts = () => bridge.callsTo('jobs.start');

beforeAll(() => setApi(bridge.api));
afterEach(() => cleanup());

describe('a fetch-all that main could not start', () => {
  it('says why in the dialog, keeps it ready with its name, and starts on the next try', async () => {
    render(<FetchAllDialog />);
    await act(() => useJobsStore.getState().askFetchAll('shipments', { importer_countries: ['CA'] }, 600));
    act(() => useJobsStore.getState().setName('Canada all'));
    await act(() => useJobsStore.getState().confirm());
    expect(screen.getByTestId('fetch-all-error').textContent).toContain(
      'Portolan may not write to its data folder',
    );
    expect(useJobsStore.getState().dialog?.name).toBe('Canada all');
    // Start fetching can be pressed again (by Enter too: it is the form's submit button).
    const confirm = screen.getByTestId('fetch-all-confirm') as HTMLButtonElement;
    expect(confirm.disabled).toBe(false);
    expect(confirm.type).toBe('submit');

    bridge.answer({ 'jobs.start': () => ok({ jobId: 'j1' }) });
    await act(() => useJobsStore.getState().confirm());
    expect(starts()).toHaveLength(2);
    expect(starts()[1]).toMatchObject({ name: 'Canada all' });
    expect(useJobsStore.getState().dialog).toBeNull();
  });
});

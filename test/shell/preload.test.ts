import { describe, expect, it, vi } from 'vitest';
import { CALL_CHANNELS, FILE_DROP_CHANNEL, IPC_PREFIX } from '@shared/ipc/channels';
import type { PortolanApi } from '@shared/ipc/build-api';

// Electron itself is the one thing replaced: a recording contextBridge and ipcRenderer.
const exposed = new Map<string, unknown>();
const invoked: [string, unknown][] = [];
const listeners = new Map<string, Set<(...args: unknown[]) => void>>();
let invokeFails = false;
/** Paths Electron knows for the Files a drop produced; a File the page made itself has none. */
const droppedPaths = new WeakMap<object, string>();
vi.mock('electron', () => ({
  webUtils: {
    getPathForFile: (file: object) => droppedPaths.get(file) ?? '',
  },
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => void exposed.set(key, api) },
  ipcRenderer: {
    invoke: async (channel: string, input: unknown) => {
      invoked.push([channel, input]);
      if (invokeFails) throw new Error('Error invoking remote method: No handler registered');
      return { ok: true, value: 'pong' };
    },
    on: (channel: string, fn: (...args: unknown[]) => void) => {
      if (!listeners.has(channel)) listeners.set(channel, new Set());
      listeners.get(channel)?.add(fn);
    },
    removeListener: (channel: string, fn: (...args: unknown[]) => void) =>
      void listeners.get(channel)?.delete(fn),
  },
}));

describe('preload bridge', async () => {
  await import('../../src/preload/index');
  const api = exposed.get('portolan') as PortolanApi;

  it('exposes exactly window.portolan with one method per call', () => {
    expect([...exposed.keys()]).toEqual(['portolan']);
    for (const channel of CALL_CHANNELS) {
      const [ns, method] = channel.split('.') as [string, string];
      expect(typeof (api as unknown as Record<string, Record<string, unknown>>)[ns]?.[method], channel).toBe(
        'function',
      );
    }
  });

  it('calls go over the prefixed channel with the input as is', async () => {
    const r = await api.profiles.setActive({ id: 'p1' });
    expect(r).toEqual({ ok: true, value: 'pong' });
    expect(invoked.at(-1)).toEqual([`${IPC_PREFIX}profiles.setActive`, { id: 'p1' }]);
  });

  it('a call main does not answer still resolves to a bridge error', async () => {
    invokeFails = true;
    try {
      expect(await api.app.info()).toMatchObject({ ok: false, error: { kind: 'Internal' } });
    } finally {
      invokeFails = false;
    }
  });

  it('subscriptions pass the payload only and unsubscribe', () => {
    const got: unknown[][] = [];
    const off = api.on('app.command', (...args: unknown[]) => void got.push(args));
    const fns = listeners.get(`${IPC_PREFIX}app.command`);
    expect(fns?.size).toBe(1);
    const fakeEvent = { sender: { send: () => undefined }, ports: [] };
    for (const fn of fns ?? []) fn(fakeEvent, { command: 'navigate', target: 'usage' });
    expect(got).toEqual([[{ command: 'navigate', target: 'usage' }]]);
    off();
    expect(listeners.get(`${IPC_PREFIX}app.command`)?.size).toBe(0);
    expect(() => api.on('not.an.event' as 'app.command', () => undefined)).toThrow(/unknown event/);
  });

  it('a dropped file goes to main as its path on the drop message, outside the bridge; the page gets the answer only', async () => {
    const file = new File(['a,b'], 'arrivals.csv');
    droppedPaths.set(file, '/home/analyst/arrivals.csv');
    const r = await api.droppedFiles?.importDropped(file);
    expect(invoked.at(-1)).toEqual([FILE_DROP_CHANNEL, '/home/analyst/arrivals.csv']);
    expect(FILE_DROP_CHANNEL.startsWith(IPC_PREFIX)).toBe(false);
    expect(r).toEqual({ ok: true, value: 'pong' });

    // A File the page built has no path: main is asked with none, and refuses it.
    await api.droppedFiles?.importDropped(new File(['x'], '/etc/passwd'));
    expect(invoked.at(-1)).toEqual([FILE_DROP_CHANNEL, '']);

    invokeFails = true;
    try {
      expect(await api.droppedFiles?.importDropped(file)).toMatchObject({
        ok: false,
        error: { kind: 'Internal' },
      });
    } finally {
      invokeFails = false;
    }
  });
});

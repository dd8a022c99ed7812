import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CALL_CHANNELS, IPC_PREFIX } from '@shared/ipc/channels';
import type { AppCommand } from '@shared/app/app-contract';
import { createLogger, createMemorySink } from '../../src/main/log';
import { createDispatcher, type CallContext, type Handlers } from '../../src/main/handlers';
import {
  createEventSender,
  registerIpcHandlers,
  type InvokeEventLike,
  type IpcMainLike,
} from '../../src/main/shell/ipc-handle';
import { buildMenuTemplate, NAVIGATION_TARGETS } from '../../src/main/shell/menu';
import { isTrustedFrame, type FrameLike } from '../../src/main/shell/trusted-sender';

type Listener = (event: InvokeEventLike, ...args: unknown[]) => Promise<unknown>;

function fakeIpcMain() {
  const handlers = new Map<string, Listener>();
  const ipc: IpcMainLike = {
    handle: (channel, listener) => {
      if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
      handlers.set(channel, listener);
    },
    removeHandler: (channel) => void handlers.delete(channel),
  };
  return { ipc, handlers };
}

const appUrl = 'app://portolan/index.html';
const mainFrame: FrameLike = { url: appUrl, parent: null };

/** The window's web contents as far as the bridge watches it: an emitter of Electron's events. */
const windowContents = new EventEmitter();

function setup(more: Partial<Record<string, (input: unknown, ctx: CallContext) => Promise<unknown>>> = {}) {
  const { ipc, handlers } = fakeIpcMain();
  const bridge = {
    'app.info': async () => ({ version: '1', host: 'electron', platform: 'linux' }),
    'profiles.list': async () => {
      throw new Error('disk on fire');
    },
    ...more,
  } as unknown as Handlers;
  const dispatch = createDispatcher<InvokeEventLike>({
    handlers: bridge,
    logger: createLogger({ sink: createMemorySink() }),
    isTrustedSender: (e) =>
      isTrustedFrame(e.senderFrame, mainFrame, {
        kind: 'app',
        rootDir: '/opt/portolan/resources/app.asar/out/renderer',
      }),
  });
  const unregister = registerIpcHandlers(ipc, dispatch);
  const invoke = (channel: string, frame: FrameLike | null, input?: unknown, sender = windowContents) => {
    const h = handlers.get(`${IPC_PREFIX}${channel}`);
    if (!h) throw new Error(`no handler for ${channel}`);
    return h({ senderFrame: frame, sender }, input);
  };
  return { handlers, invoke, unregister };
}

describe('ipc handle wrapper', () => {
  it('registers every call channel under the prefix, once, and can remove them', () => {
    const { handlers, unregister } = setup();
    expect([...handlers.keys()].sort()).toEqual(CALL_CHANNELS.map((c) => `${IPC_PREFIX}${c}`).sort());
    unregister();
    expect(handlers.size).toBe(0);
  });

  it('answers the main frame and refuses others', async () => {
    const { invoke } = setup();
    expect(await invoke('app.info', mainFrame)).toEqual({
      ok: true,
      value: { version: '1', host: 'electron', platform: 'linux' },
    });
    const iframe: FrameLike = { url: appUrl, parent: mainFrame };
    expect(await invoke('app.info', iframe)).toMatchObject({ ok: false, error: { kind: 'Forbidden' } });
    expect(await invoke('app.info', null)).toMatchObject({ ok: false, error: { kind: 'Forbidden' } });
    const popup: FrameLike = { url: 'https://evil.example/', parent: null };
    expect(await invoke('app.info', popup)).toMatchObject({ ok: false, error: { kind: 'Forbidden' } });
  });

  it('always resolves with a result, never rejects', async () => {
    const { invoke } = setup();
    await expect(invoke('profiles.list', mainFrame)).resolves.toEqual({
      ok: false,
      error: { kind: 'Internal', message: expect.not.stringContaining('disk on fire') },
    });
    await expect(invoke('app.info', mainFrame, { unexpected: 1 })).resolves.toMatchObject({
      ok: false,
      error: { kind: 'InvalidInput' },
    });
    // A channel with no service at all still answers with a result.
    await expect(invoke('firms.count', mainFrame, { request: {} })).resolves.toMatchObject({
      ok: false,
      error: { kind: 'Internal' },
    });
  });
});

describe('a call whose page goes away', () => {
  /** A usage query that waits until its signal fires, as the signed client's request does. */
  function slowQuery() {
    const signals: AbortSignal[] = [];
    const setupped = setup({
      'usage.get': (_input, ctx) =>
        new Promise((_resolve, reject) => {
          if (!ctx.signal) return reject(new Error('no signal'));
          signals.push(ctx.signal);
          ctx.signal.addEventListener('abort', () =>
            reject(new DOMException('This operation was aborted', 'AbortError')),
          );
        }),
    });
    return { ...setupped, signals };
  }
  const query = {};

  it.each([
    ['the window is closed', (w: EventEmitter) => w.emit('destroyed')],
    ['the renderer crashes', (w: EventEmitter) => w.emit('render-process-gone', {}, { reason: 'crashed' })],
    [
      'the page is reloaded',
      (w: EventEmitter) => w.emit('did-start-navigation', { isMainFrame: true, isSameDocument: false }),
    ],
  ])('is cancelled when %s, and the next page gets a fresh signal', async (_what, goAway) => {
    const contents = new EventEmitter();
    const { invoke, signals } = slowQuery();
    const pending = invoke('usage.get', mainFrame, query, contents);
    await vi.waitFor(() => expect(signals).toHaveLength(1));
    expect(signals[0]!.aborted).toBe(false);
    goAway(contents);
    expect(signals[0]!.aborted).toBe(true);
    await expect(pending).resolves.toMatchObject({ ok: false, error: { kind: 'Cancelled' } });
    void invoke('usage.get', mainFrame, query, contents);
    await vi.waitFor(() => expect(signals).toHaveLength(2));
    expect(signals[1]!.aborted).toBe(false);
  });

  it('goes on through a same-document navigation, a subframe navigation and another window closing', async () => {
    const contents = new EventEmitter();
    const other = new EventEmitter();
    const { invoke, signals } = slowQuery();
    void invoke('usage.get', mainFrame, query, contents);
    void invoke('usage.get', mainFrame, query, other);
    await vi.waitFor(() => expect(signals).toHaveLength(2));
    contents.emit('did-start-navigation', { isMainFrame: true, isSameDocument: true });
    contents.emit('did-start-navigation', { isMainFrame: false, isSameDocument: false });
    other.emit('destroyed');
    expect(signals[0]!.aborted).toBe(false);
    expect(signals[1]!.aborted).toBe(true);
    // Listeners are added once per web contents, not once per call.
    void invoke('app.info', mainFrame, undefined, contents);
    expect(contents.listenerCount('destroyed')).toBe(1);
  });
});

describe('event sender', () => {
  it('sends typed events to a live window only', () => {
    const sent: [string, unknown][] = [];
    let destroyed = false;
    let win: { webContents: { isDestroyed(): boolean; send(c: string, p: unknown): void } } | null = {
      webContents: { isDestroyed: () => destroyed, send: (c, p) => void sent.push([c, p]) },
    };
    const events = createEventSender(() => win);
    events.emit('app.command', { command: 'run-search' });
    destroyed = true;
    events.emit('app.command', { command: 'run-search' });
    win = null;
    events.emit('jobs.finished', { kind: 'export', jobId: 'j', outcome: 'succeeded', message: '' });
    expect(sent).toEqual([[`${IPC_PREFIX}app.command`, { command: 'run-search' }]]);
  });
});

describe('application menu', () => {
  afterEach(() => vi.restoreAllMocks());
  type Item = { label?: string; accelerator?: string; role?: string; click?: () => void; submenu?: Item[] };
  const flatten = (items: Item[]): Item[] => items.flatMap((i) => [i, ...flatten(i.submenu ?? [])]);

  it('gives every page a Ctrl/Cmd+number shortcut and Ctrl+Enter runs the search', () => {
    const sent: AppCommand[] = [];
    const items = flatten(
      buildMenuTemplate({
        platform: 'linux',
        appName: 'Portolan',
        send: (c) => sent.push(c),
        showLog: () => undefined,
        dev: false,
      }) as Item[],
    );
    NAVIGATION_TARGETS.forEach(({ target }, i) => {
      const item = items.find((x) => x.accelerator === `CmdOrCtrl+${i + 1}`);
      item?.click?.();
      expect(sent.at(-1)).toEqual({ command: 'navigate', target });
    });
    items.find((x) => x.accelerator === 'CmdOrCtrl+Enter')?.click?.();
    expect(sent.at(-1)).toEqual({ command: 'run-search' });
    expect(sent).toHaveLength(NAVIGATION_TARGETS.length + 1);
    const accelerators = items.map((x) => x.accelerator).filter(Boolean);
    expect(new Set(accelerators).size).toBe(accelerators.length);
    expect(items.some((x) => x.role === 'toggleDevTools')).toBe(false);
  });

  it('sends each menu command as its variant of AppCommand: Run Search (Ctrl+Enter), Edit Filter (Ctrl+L)', () => {
    const sent: AppCommand[] = [];
    const items = flatten(
      buildMenuTemplate({
        platform: 'linux',
        appName: 'Portolan',
        send: (c) => sent.push(c),
        showLog: () => undefined,
        dev: false,
      }) as Item[],
    );
    const run = items.find((x) => x.label === 'Run Search');
    const edit = items.find((x) => x.label === 'Edit Filter');
    expect([run?.accelerator, edit?.accelerator]).toEqual(['CmdOrCtrl+Enter', 'CmdOrCtrl+L']);
    run?.click?.();
    edit?.click?.();
    expect(sent).toEqual([{ command: 'run-search' }, { command: 'focus-filter' }]);
  });

  it('has the macOS app menu with Cmd+, for settings, and dev tools only in dev', () => {
    const sent: AppCommand[] = [];
    const mac = buildMenuTemplate({
      platform: 'darwin',
      appName: 'Portolan',
      send: (c) => sent.push(c),
      showLog: () => undefined,
      dev: true,
    }) as Item[];
    expect(mac[0]?.label).toBe('Portolan');
    flatten(mac)
      .find((x) => x.accelerator === 'Cmd+,')
      ?.click?.();
    expect(sent).toEqual([{ command: 'navigate', target: 'settings' }]);
    expect(flatten(mac).some((x) => x.role === 'toggleDevTools')).toBe(true);
  });
});

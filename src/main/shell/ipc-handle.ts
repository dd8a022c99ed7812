import type { ChosenFile } from '@shared/files/file-handle';
import {
  CALL_CHANNELS,
  EVENT_CHANNELS,
  FILE_DROP_CHANNEL,
  IPC_PREFIX,
  type EventChannel,
} from '@shared/ipc/channels';
import type { Events } from '@shared/ipc/contract';
import type { BridgeResult } from '@shared/ipc/errors';
import { toBridgeResultError, type Dispatch, type EventSink } from '../handlers';
import type { FrameLike } from './trusted-sender';

/** The parts of ipcMain and its invoke event this module uses; tests pass fakes. */
export interface InvokeEventLike {
  readonly senderFrame: FrameLike | null;
  /** The web contents that sent the call: its page going away ends the call. */
  readonly sender: SenderLike;
}

/** What this module watches on the sending web contents (Electron's WebContents has these events). */
export interface SenderLike {
  on(event: 'destroyed', listener: () => void): unknown;
  on(event: 'render-process-gone', listener: () => void): unknown;
  on(
    event: 'did-start-navigation',
    listener: (details: { isMainFrame: boolean; isSameDocument: boolean }) => void,
  ): unknown;
}
export interface IpcMainLike {
  handle(channel: string, listener: (event: InvokeEventLike, ...args: unknown[]) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}
export interface WebContentsLike {
  isDestroyed(): boolean;
  send(channel: string, payload: unknown): void;
}

/**
 * The one place ipcMain.handle is called: each bridge call, under IPC_PREFIX, goes to the dispatcher
 * with the invoke event as the sender (the dispatcher's trust check looks at its frame) and an
 * AbortSignal that fires when the page that made the call goes away (its window closed or crashed, or a
 * new document loaded in it), as the browser host's does when its request's connection closes: nobody is
 * left to read the answer, so a search stops sending and waiting. The handler always resolves to a
 * BridgeResult, so a renderer never sees Electron's raw "Error invoking remote method". Returns a function
 * that removes the handlers.
 */
export function registerIpcHandlers(ipcMain: IpcMainLike, dispatch: Dispatch<InvokeEventLike>): () => void {
  // One controller per page of a web contents, shared by that page's calls; replaced once it fires.
  const pages = new WeakMap<SenderLike, AbortController>();
  const watched = new WeakSet<SenderLike>();
  const pageSignal = (sender: SenderLike): AbortSignal => {
    let page = pages.get(sender);
    if (page) return page.signal;
    page = new AbortController();
    pages.set(sender, page);
    if (!watched.has(sender)) {
      watched.add(sender);
      const gone = (): void => {
        pages.get(sender)?.abort();
        pages.delete(sender);
      };
      sender.on('destroyed', gone);
      sender.on('render-process-gone', gone);
      sender.on('did-start-navigation', (details) => {
        if (details.isMainFrame && !details.isSameDocument) gone();
      });
    }
    return page.signal;
  };
  for (const channel of CALL_CHANNELS) {
    ipcMain.handle(`${IPC_PREFIX}${channel}`, async (event, input): Promise<BridgeResult<unknown>> => {
      try {
        return await dispatch(channel, input, event, { signal: pageSignal(event.sender) });
      } catch {
        return { ok: false, error: { kind: 'Internal', message: 'Something went wrong inside Portolan.' } };
      }
    });
  }
  return () => {
    for (const channel of CALL_CHANNELS) ipcMain.removeHandler(`${IPC_PREFIX}${channel}`);
  };
}

/**
 * Main's end of a file dropped on the window: the preload sends the dropped file's path on its own
 * message (FILE_DROP_CHANNEL, no bridge call), main answers with an import handle. Only the main
 * window's own page may send it (the same check as every bridge call); the path is checked and kept
 * by `adopt` (the handlers' dropped files), and only the handle, the name and the folder go back.
 * Returns a function that removes the handler.
 */
export function registerFileDrop(
  ipcMain: IpcMainLike,
  deps: {
    isTrustedSender: (event: InvokeEventLike) => boolean;
    adopt: (path: unknown) => Promise<ChosenFile>;
  },
): () => void {
  ipcMain.handle(FILE_DROP_CHANNEL, async (event, path): Promise<BridgeResult<ChosenFile>> => {
    if (!deps.isTrustedSender(event)) {
      return {
        ok: false,
        error: { kind: 'Forbidden', message: 'Only the Portolan window may import files.' },
      };
    }
    try {
      return { ok: true, value: await deps.adopt(path) };
    } catch (e) {
      return { ok: false, error: toBridgeResultError(e) };
    }
  });
  return () => ipcMain.removeHandler(FILE_DROP_CHANNEL);
}

const KNOWN_EVENTS = new Set<string>(EVENT_CHANNELS);

/** The one typed event sender: events go to the main window only, and only while it exists. */
export function createEventSender(
  target: () => { webContents: WebContentsLike } | null | undefined,
): EventSink {
  return {
    emit<E extends EventChannel>(event: E, payload: Events[E]): void {
      if (!KNOWN_EVENTS.has(event)) return;
      const win = target();
      if (!win || win.webContents.isDestroyed()) return;
      win.webContents.send(`${IPC_PREFIX}${event}`, payload);
    },
  };
}

import { CALL_CHANNELS, EVENT_CHANNELS, IPC_PREFIX, type EventChannel } from '@shared/ipc/channels';
import type { Events } from '@shared/ipc/contract';
import type { BridgeResult } from '@shared/ipc/errors';
import type { Dispatch, EventSink } from '../handlers';
import type { FrameLike } from './trusted-sender';

/** The parts of ipcMain and its invoke event this module uses; tests pass fakes. */
export interface InvokeEventLike {
  readonly senderFrame: FrameLike | null;
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
 * with the invoke event as the sender (the dispatcher's trust check looks at its frame). The handler
 * always resolves to a BridgeResult, so a renderer never sees Electron's raw "Error invoking remote method".
 * Returns a function that removes the handlers.
 */
export function registerIpcHandlers(ipcMain: IpcMainLike, dispatch: Dispatch<InvokeEventLike>): () => void {
  for (const channel of CALL_CHANNELS) {
    ipcMain.handle(`${IPC_PREFIX}${channel}`, async (event, input): Promise<BridgeResult<unknown>> => {
      try {
        return await dispatch(channel, input, event);
      } catch {
        return { ok: false, error: { kind: 'Internal', message: 'Something went wrong inside Portolan.' } };
      }
    });
  }
  return () => {
    for (const channel of CALL_CHANNELS) ipcMain.removeHandler(`${IPC_PREFIX}${channel}`);
  };
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

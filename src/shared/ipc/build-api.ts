import type { BridgeResult } from './errors';
import type { CallChannel, EventChannel } from './channels';
import type { CallInput, CallOutput, Events } from './contract';
import type { ChosenFile } from '../files/file-handle';

/**
 * Files between the window and a host that has no native dialogs (the browser host): a file the
 * analyst picks in the page is uploaded and comes back as an import handle; a finished export is
 * fetched by its handle. The Electron host has none: main opens its own dialogs there.
 */
export interface FileTransfer {
  upload(file: Blob, fileName: string): Promise<BridgeResult<ChosenFile>>;
  /** A same-origin address the export behind `handle` downloads from. */
  downloadUrl(handle: string): string;
}

/**
 * Files dropped on the Electron window: the preload reads the dropped file's path itself and main
 * answers with an import handle, so no path crosses into the page. Absent in the browser host (it
 * uploads a dropped file through `FileTransfer`).
 */
export interface DroppedFiles {
  /** An import handle for a file the analyst dropped on the window, or why it cannot be imported. */
  importDropped(file: File): Promise<BridgeResult<ChosenFile>>;
}

/** How calls and events travel: Electron IPC in the app, HTTP + server-sent events in the browser host. */
export interface Transport {
  invoke(channel: CallChannel, input: unknown): Promise<BridgeResult<unknown>>;
  subscribe(event: EventChannel, listener: (payload: unknown) => void): () => void;
  fileTransfer?: FileTransfer;
  droppedFiles?: DroppedFiles;
}

type Split<S extends string> = S extends `${infer A}.${infer B}` ? [A, B] : never;
type Namespaces = Split<CallChannel>[0];
type MethodsOf<N extends string> = {
  [C in CallChannel as Split<C>[0] extends N ? Split<C>[1] : never]: undefined extends CallInput<C>
    ? (input?: CallInput<C>) => Promise<BridgeResult<CallOutput<C>>>
    : (input: CallInput<C>) => Promise<BridgeResult<CallOutput<C>>>;
};

/** `window.portolan`: one method per call, grouped by namespace, plus a typed event subscription. */
export type PortolanApi = { [N in Namespaces]: MethodsOf<N> } & {
  on<E extends EventChannel>(event: E, listener: (payload: Events[E]) => void): () => void;
  /** Present only where the window moves files itself (the browser host). */
  fileTransfer?: FileTransfer;
  /** Present only in the Electron window: a dropped file becomes an import handle. */
  droppedFiles?: DroppedFiles;
};

/** Builds the API object from a channel list and a transport; identical in both hosts. */
export function buildApi(channels: readonly CallChannel[], transport: Transport): PortolanApi {
  const api: Record<string, unknown> = {};
  for (const channel of channels) {
    const [ns, method] = channel.split('.') as [string, string];
    const group = (api[ns] ??= {}) as Record<string, unknown>;
    group[method] = (input?: unknown) => transport.invoke(channel, input);
  }
  api.on = (event: EventChannel, listener: (payload: unknown) => void) =>
    transport.subscribe(event, listener);
  if (transport.fileTransfer) api.fileTransfer = transport.fileTransfer;
  if (transport.droppedFiles) api.droppedFiles = transport.droppedFiles;
  return api as PortolanApi;
}

import type { CallChannel, EventChannel } from '@shared/ipc/channels';
import type { CallOutput, Events, ParsedInput } from '@shared/ipc/contract';
import type { ClientOptions } from '../api';
import type { Probe } from '../connection';
import type { FileHandles } from '../file-handles';
import type { Logger } from '../log';
import type { SecretStore } from '../secrets';
import type { HostFiles } from './host-files';
import type { DroppedFiles } from './dropped-files';

/** Per-call context: the caller's cancellation signal, when the transport has one. */
export interface CallContext {
  signal?: AbortSignal;
}

/** The Electron-free implementation of one bridge call: input already parsed by the channel's schema. */
export type HandlerFn<C extends CallChannel> = (
  input: ParsedInput<C>,
  ctx: CallContext,
) => Promise<CallOutput<C>>;

/** Every bridge call implemented; composed from per-capability modules (`<capability>-handlers.ts`). */
export type Handlers = { [C in CallChannel]: HandlerFn<C> };

/** A slice of Handlers that one capability module provides. */
export type HandlerSlice<C extends CallChannel> = { [K in C]: HandlerFn<K> };

/** Where handlers publish events; the shell sends them to the window, the web host to its SSE stream. */
export interface EventSink {
  emit<E extends EventChannel>(event: E, payload: Events[E]): void;
}

/** What createHandlers needs from its host (the Electron shell or the browser test host). */
export interface HandlerDeps {
  /** Where profiles.json and other app files live (userData in Electron). */
  dataDir: string;
  /** Read-only bundled resources (e.g. reference CSVs). */
  resourcesDir: string;
  logger: Logger;
  events: EventSink;
  /** The OS keychain for real profiles. The demo profile's generated pair is kept in memory instead. */
  secrets: SecretStore;
  appInfo: { version: string; host: 'electron' | 'browser' };
  /** export: asks the user where to save a file (native dialog); null when they cancel. Absent: `<dataDir>/exports/`. */
  chooseSavePath?: ChooseSavePath;
  /** import: asks the user for a file to import (native dialog); null when they cancel. Absent: uploads only. */
  chooseOpenPath?: ChooseOpenPath;
  /**
   * The handles the window names files by. A host that also serves files (the browser host's uploads and
   * downloads) passes the registry it shares with the handlers; otherwise the handlers make their own.
   */
  fileHandles?: FileHandles;
  /** Defaults to the embedded simulator of src/main/sim. */
  startSimulator?: StartSimulator;
  /** Timeouts and retries of the service client (tests and the web host shorten them). */
  clientOptions?: Pick<ClientOptions, 'timeoutMs' | 'retry'>;
  /** How an unreachable service is probed until it answers again; defaults to a bare TCP connection. */
  connectionProbe?: Probe;
  /** How often an unreachable service is probed (default 2 s; tests shorten it). */
  connectionProbeEveryMs?: number;
  /**
   * How long after a gateway's last "unavailable" answer nothing is taken to be asking any more
   * (default 45 s; tests shorten it).
   */
  connectionQuietAfterMs?: number;
  /** Longest a fetch job waits for a service that stopped answering (default 10 minutes; tests shorten it). */
  maxServiceWaitMs?: number;
  /** The clock that ages the usage figures (a scripted session moves it); default Date.now. */
  now?: () => number;
  /**
   * Most records one search of a Watched refresh asks for (default the spec's 10,000); tests lower it
   * so that a day holds more than one search returns and a snapshot leaves a window incomplete.
   */
  watchSearchCap?: number;
}

/** export: the host's save dialog. `defaultPath` is the remembered folder joined with the suggested name. */
export type ChooseSavePath = (options: {
  defaultPath: string;
  format: 'xlsx' | 'csv' | 'parquet';
}) => Promise<string | null>;

/** import: the host's open dialog; the path of the file the user picked, or null when they cancel. */
export type ChooseOpenPath = (options: { purpose: 'import' }) => Promise<string | null>;

export interface SimulatorAccount {
  name: string;
  apiKey: string;
  apiSecret: string;
}

/** The subset of the simulator's API the demo uses. */
export type StartSimulator = (options: {
  port: number;
  host?: '127.0.0.1';
  records: number;
  seed: number;
  accounts: SimulatorAccount[];
  hsCodesCsvPath?: string;
}) => Promise<{ url: string; port: number; close(): Promise<void> }>;

/**
 * createHandlers' result: every call, the browser host's file transfer (uploads in, exports out, by
 * handle), and the release of what the handlers started (the demo simulator, uploaded files).
 */
export type HandlersHandle = Handlers & {
  hostFiles: HostFiles;
  /** The Electron window's dropped files, adopted as import handles (the shell's own message, not a call). */
  droppedFiles: DroppedFiles;
  dispose(): Promise<void>;
};

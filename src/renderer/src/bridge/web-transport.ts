import type { ChosenFile } from '@shared/files/file-handle';
import type { Transport } from '@shared/ipc/build-api';
import type { CallChannel, EventChannel } from '@shared/ipc/channels';
import type { BridgeResult, ErrorKind } from '@shared/ipc/errors';

/** Must match the web host's FILE_NAME_HEADER. */
const FILE_NAME_HEADER = 'X-Portolan-File-Name';
const RECONNECT_MS = [500, 1000, 2000];
/** The host writes to the event stream at least every 2 s; this long without a byte means it is gone. */
const STALE_STREAM_MS = 4500;

function failure(kind: ErrorKind, message: string): BridgeResult<never> {
  return { ok: false, error: { kind, message } };
}

function isBridgeResult(v: unknown): v is BridgeResult<unknown> {
  if (typeof v !== 'object' || v === null || !('ok' in v)) return false;
  const r = v as { ok: unknown; error?: unknown };
  if (r.ok === true) return true;
  return r.ok === false && typeof r.error === 'object' && r.error !== null;
}

export interface WebTransportOptions {
  /** The host's address; '' for the page's own origin. */
  base?: string;
  /** Settles once the page may call the host (the launch token has been traded for the session cookie). */
  ready?: Promise<void>;
  /**
   * The fetch to use: the page's own, which sends the host's session cookie with every same-origin
   * request. Tests outside a browser pass one that keeps the cookie.
   */
  fetch?: typeof fetch;
  /**
   * Whether the host answers: false as soon as a call or the event stream fails, or the stream stays
   * silent past its heartbeat; true again when the stream is back. Called on changes only.
   */
  onLink?: (up: boolean) => void;
  /** Overrides the silence after which the host counts as gone (tests). */
  staleAfterMs?: number;
}

/**
 * The browser host's transport: calls are `POST /rpc/<channel>`, events one shared server-sent-events
 * stream read with fetch, both authorised by the host's session cookie (no token travels with them).
 * The stream opens with the first listener, reconnects with back-off, and closes with the last.
 */
export function createWebTransport(options: WebTransportOptions = {}): Transport {
  const base = options.base ?? '';
  const ready = options.ready ?? Promise.resolve();
  // Once the session is ready a call goes out in the task that makes it. Awaited every time, the
  // request left one turn later, after the render its caller had asked for (a search's "running"
  // state drew for ~5 ms before the search left).
  let isReady = false;
  ready.then(
    () => (isReady = true),
    () => undefined,
  );
  const send: typeof fetch = options.fetch ?? ((input, init) => fetch(input, init));
  const listeners = new Map<EventChannel, Set<(payload: unknown) => void>>();
  let stream: AbortController | null = null;
  const staleAfterMs = options.staleAfterMs ?? STALE_STREAM_MS;
  let linkUp: boolean | null = null;
  const link = (up: boolean): void => {
    if (linkUp === up) return;
    linkUp = up;
    options.onLink?.(up);
  };

  function listenerTotal(): number {
    let n = 0;
    for (const s of listeners.values()) n += s.size;
    return n;
  }

  function deliver(block: string): void {
    const data = block
      .split('\n')
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).replace(/^ /, ''))
      .join('\n');
    if (!data) return;
    let msg: { event?: unknown; payload?: unknown };
    try {
      msg = JSON.parse(data) as { event?: unknown; payload?: unknown };
    } catch {
      return;
    }
    const set = listeners.get(msg.event as EventChannel);
    if (!set) return;
    for (const l of [...set]) {
      try {
        l(msg.payload);
      } catch (e) {
        console.error('event listener failed', e);
      }
    }
  }

  async function run(ctrl: AbortController): Promise<void> {
    let attempt = 0;
    while (!ctrl.signal.aborted) {
      // One connection: aborted by close (ctrl) or by the watchdog when the host falls silent.
      const conn = new AbortController();
      const stop = (): void => conn.abort();
      ctrl.signal.addEventListener('abort', stop, { once: true });
      let watchdog: ReturnType<typeof setTimeout> | undefined;
      const feed = (): void => {
        clearTimeout(watchdog);
        watchdog = setTimeout(stop, staleAfterMs);
      };
      try {
        await ready;
        feed();
        const res = await send(`${base}/events`, {
          headers: { Accept: 'text/event-stream' },
          signal: conn.signal,
        });
        if (!res.ok || !res.body) throw new Error(`events: HTTP ${res.status}`);
        attempt = 0;
        link(true);
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          feed();
          buffer += value.replace(/\r\n/g, '\n');
          let idx: number;
          while ((idx = buffer.indexOf('\n\n')) >= 0) {
            deliver(buffer.slice(0, idx));
            buffer = buffer.slice(idx + 2);
          }
        }
      } catch {
        // A failed or silent stream; a close ends the loop below.
      } finally {
        clearTimeout(watchdog);
        ctrl.signal.removeEventListener('abort', stop);
      }
      if (ctrl.signal.aborted) return;
      link(false);
      const wait = RECONNECT_MS[Math.min(attempt, RECONNECT_MS.length - 1)] ?? 2000;
      attempt += 1;
      await new Promise((r) => setTimeout(r, wait));
    }
  }

  /** One request to the host, its answer read as a BridgeResult. */
  async function post(
    path: string,
    headers: Record<string, string>,
    body: Blob | string,
  ): Promise<BridgeResult<unknown>> {
    let res: Response;
    try {
      if (!isReady) await ready;
      res = await send(`${base}${path}`, {
        method: 'POST',
        headers,
        body,
      });
    } catch {
      link(false);
      return failure('Internal', 'The Portolan host is not reachable. Is `npm run web` still running?');
    }
    if (res.status === 401 || res.status === 403) {
      return failure(
        'Forbidden',
        'This page is not authorised by the Portolan host. Open the address it printed.',
      );
    }
    if (!res.ok) return failure('Internal', `The Portolan host answered HTTP ${res.status}.`);
    let answer: unknown;
    try {
      answer = await res.json();
    } catch {
      return failure('Internal', 'The Portolan host sent an unreadable answer.');
    }
    return isBridgeResult(answer)
      ? answer
      : failure('Internal', 'The Portolan host sent an unexpected answer.');
  }

  return {
    invoke(channel: CallChannel, input: unknown): Promise<BridgeResult<unknown>> {
      return post(
        `/rpc/${channel}`,
        { 'Content-Type': 'application/json' },
        input === undefined ? '' : JSON.stringify(input),
      );
    },
    fileTransfer: {
      async upload(file, fileName) {
        const r = await post(
          '/files/import',
          { 'Content-Type': 'application/octet-stream', [FILE_NAME_HEADER]: encodeURIComponent(fileName) },
          file,
        );
        return r as BridgeResult<ChosenFile>;
      },
      downloadUrl: (handle) => `${base}/files/export/${encodeURIComponent(handle)}`,
    },
    subscribe(event: EventChannel, listener: (payload: unknown) => void): () => void {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener);
      if (!stream) {
        stream = new AbortController();
        void run(stream);
      }
      return () => {
        set.delete(listener);
        if (listenerTotal() === 0 && stream) {
          stream.abort();
          stream = null;
        }
      };
    },
  };
}

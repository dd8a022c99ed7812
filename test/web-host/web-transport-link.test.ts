import { describe, expect, it, vi } from 'vitest';
import { createWebTransport } from '../../src/renderer/src/bridge/web-transport';

/**
 * The window learns that the browser host is gone from its transport: a failed call, a failed event
 * stream, or a stream that stays silent past the host's heartbeat. A fetch stands in for the host so
 * each of those can be staged; every wait is for a condition.
 */
function stagedHost() {
  let streams: ReadableStreamDefaultController<Uint8Array>[] = [];
  let up = true;
  const encoder = new TextEncoder();
  const fetch = vi.fn(async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    if (!up) throw new TypeError('fetch failed');
    if (String(input).endsWith('/events')) {
      let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
      const body = new ReadableStream<Uint8Array>({
        start: (c) => {
          controller = c;
          streams.push(c);
          c.enqueue(encoder.encode(': hello\n\n'));
        },
      });
      // As a real fetch does: an abort errors the body being read.
      init?.signal?.addEventListener('abort', () => {
        try {
          controller?.error(new DOMException('aborted', 'AbortError'));
        } catch {
          // already errored
        }
      });
      return new Response(body, { status: 200 });
    }
    return Response.json({ ok: true, value: 'pong' });
  });
  return {
    fetch: fetch as unknown as typeof globalThis.fetch,
    beat: () => streams.at(-1)?.enqueue(encoder.encode(': ping\n\n')),
    /** The host process ends: open streams error, new connections are refused. */
    stop() {
      up = false;
      for (const c of streams) c.error(new TypeError('network error'));
      streams = [];
    },
    start() {
      up = true;
    },
  };
}

describe('the web transport watches its link to the host', () => {
  it('down when the host stops, up again when its event stream is back; changes only', async () => {
    const host = stagedHost();
    const link: boolean[] = [];
    const t = createWebTransport({ fetch: host.fetch, onLink: (u) => link.push(u), staleAfterMs: 5_000 });
    const off = t.subscribe('usage.changed', () => undefined);
    await vi.waitFor(() => expect(link).toEqual([true]));
    host.stop();
    await vi.waitFor(() => expect(link).toEqual([true, false]));
    // A call while it is gone fails in words, and is no second "down".
    const r = await t.invoke('app.info', undefined);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error.message).toContain('not reachable');
    host.start();
    await vi.waitFor(() => expect(link).toEqual([true, false, true]), { timeout: 5_000 });
    off();
  });

  it('a stream that falls silent past the heartbeat counts as a dead host, while one that beats does not', async () => {
    // The host's clock is faked, so "silent for 4.5 s" does not depend on how loaded the machine is.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const host = stagedHost();
      const link: boolean[] = [];
      const t = createWebTransport({ fetch: host.fetch, onLink: (u) => link.push(u) });
      const off = t.subscribe('usage.changed', () => undefined);
      await vi.advanceTimersByTimeAsync(0);
      expect(link).toEqual([true]);
      // A beat every 2 s, as the host sends them, for 20 s: up all along.
      for (let i = 0; i < 10; i += 1) {
        await vi.advanceTimersByTimeAsync(2_000);
        host.beat();
      }
      expect(link).toEqual([true]);
      // Frozen: the stream stays open and says nothing. Not yet after 4 s; down at 4.5 s, within 5 s.
      await vi.advanceTimersByTimeAsync(4_000);
      expect(link).toEqual([true]);
      await vi.advanceTimersByTimeAsync(600);
      expect(link).toEqual([true, false]);
      // The reconnect (half a second later) gets a fresh stream: up again.
      await vi.advanceTimersByTimeAsync(500);
      expect(link).toEqual([true, false, true]);
      off();
    } finally {
      vi.useRealTimers();
    }
  });
});

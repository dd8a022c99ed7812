import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApi, type PortolanApi } from '@shared/ipc/build-api';
import { CALL_CHANNELS } from '@shared/ipc/channels';
import type { JobProgress } from '@shared/jobs/jobs-contract';
import { createLogger, createMemorySink } from '../../src/main/log';
import { createKeytarSecretStore } from '../../src/main/secrets';
import { createWebHost, type WebHost } from '../../src/main/web-host';
import { openSession } from '../helpers/browser-session';
import { createWebTransport } from '../../src/renderer/src/bridge/web-transport';
import {
  onServiceOutcome,
  withServiceOutcomes,
  type ServiceOutcome,
} from '../../src/renderer/src/bridge/service-outcomes';

// The renderer's transport, run in Node (fetch and streams are the same APIs) against a real host.
let dir: string;
let host: WebHost;
let api: PortolanApi;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'portolan-transport-'));
  await writeFile(join(dir, 'index.html'), '<!doctype html>');
  const logger = createLogger({ sink: createMemorySink() });
  host = await createWebHost({
    rendererDir: dir,
    logger,
    deps: {
      dataDir: join(dir, 'data'),
      resourcesDir: join(dir, 'resources'),
      logger,
      secrets: createKeytarSecretStore({ service: `Portolan transport test ${randomUUID()}` }),
      version: '1.2.3',
    },
  });
  const session = await openSession(host);
  api = buildApi(CALL_CHANNELS, createWebTransport({ base: host.origin, fetch: session.fetch }));
});

afterAll(async () => {
  await host?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('web transport', () => {
  it('makes typed calls that return the handlers’ results', async () => {
    expect(await api.app.info()).toEqual({
      ok: true,
      value: { version: '1.2.3', host: 'browser', platform: process.platform },
    });
    // Another test of this file may have made a profile on the same host before this one runs.
    const before = await api.profiles.list();
    const created = await api.profiles.create({ name: 'T', baseUrl: 'https://api.example.com' });
    expect(created.ok).toBe(true);
    const list = await api.profiles.list();
    expect(list.ok && list.value.profiles.map((p) => p.id)).toEqual([
      ...(before.ok ? before.value.profiles.map((p) => p.id) : []),
      created.ok ? created.value.id : '',
    ]);
    expect(list.ok && list.value.profiles.at(-1)?.name).toBe('T');
  });

  it('turns a page without the session into a Forbidden result instead of throwing', async () => {
    const stranger = buildApi(CALL_CHANNELS, createWebTransport({ base: host.origin }));
    const r = await stranger.app.info();
    expect(r).toMatchObject({ ok: false, error: { kind: 'Forbidden' } });
  });

  it('sends a call in the task that makes it once the session is ready, and waits for the session before', async () => {
    const sent: string[] = [];
    let open: () => void = () => undefined;
    const t = createWebTransport({
      base: 'http://host.invalid',
      ready: new Promise<void>((resolve) => (open = resolve)),
      fetch: (input) => {
        sent.push(String(input));
        return Promise.resolve(new Response(JSON.stringify({ ok: true, value: sent.length })));
      },
    });
    // Before the session: the call waits for it.
    const first = t.invoke('app.info', undefined);
    await new Promise((r) => setTimeout(r, 0));
    expect(sent).toEqual([]);
    open();
    expect(await first).toEqual({ ok: true, value: 1 });
    // Then a call is on its way before its caller goes on (a render it asked for comes after it).
    const second = t.invoke('app.info', undefined);
    expect(sent).toEqual(['http://host.invalid/rpc/app.info', 'http://host.invalid/rpc/app.info']);
    expect(await second).toEqual({ ok: true, value: 2 });
  });

  it('turns an unreachable host into a failed result', async () => {
    const closed = await createWebHost({ rendererDir: dir, handlers: {} as never });
    const origin = closed.origin;
    await closed.close();
    const r = await buildApi(CALL_CHANNELS, createWebTransport({ base: origin })).app.info();
    expect(r.ok).toBe(false);
  });

  it('delivers events to the listeners of that event only, until they unsubscribe', async () => {
    const got: JobProgress[] = [];
    const other: unknown[] = [];
    const first = new Promise<void>((resolve) => {
      const off = api.on('jobs.progress', (p) => {
        got.push(p);
        if (got.length === 2) {
          off();
          resolve();
        }
      });
    });
    const offOther = api.on('jobs.finished', (p) => other.push(p));
    // The stream is opened by the first subscription; wait until the host sees it.
    await waitFor(() => host.events.listenerCount === 1);
    const p1 = {
      kind: 'export' as const,
      jobId: 'a',
      label: 'L',
      phase: 'rows' as const,
      done: 1,
      total: 3,
      unit: 'rows' as const,
      etaSeconds: null,
    };
    const p2 = { ...p1, done: 2 };
    host.events.emit('jobs.progress', p1);
    host.events.emit('jobs.progress', p2);
    await first;
    expect(got).toEqual([p1, p2]);
    expect(other).toEqual([]);
    offOther();
    // The last unsubscribe closes the stream.
    await waitFor(() => host.events.listenerCount === 0);
  });
});

describe('service outcomes', () => {
  it('reports the connection-relevant outcome of service calls, and nothing for other calls', async () => {
    const seen: ServiceOutcome[] = [];
    const off = onServiceOutcome((o) => seen.push(o));
    try {
      const wrapped = withServiceOutcomes(api);
      // Its own profile: the one another test made is there only when that test ran first.
      const profile = await wrapped.profiles.create({ name: 'No key', baseUrl: 'https://api.example.com' });
      expect(seen).toEqual([]);
      const id = profile.ok ? profile.value.id : undefined;
      expect(id).toBeTruthy();
      // A profile without key and secret: the service call fails for a reason that concerns the connection.
      const r = await wrapped.usage.get({ profileId: id });
      expect(r).toMatchObject({ ok: false, error: { kind: 'NoCredentials' } });
      expect(seen).toEqual([{ profileId: id, ok: false, error: r.ok ? undefined : r.error }]);
      // Input the schema refuses says nothing about the connection.
      await wrapped.usage.get({ profileId: '' });
      expect(seen).toHaveLength(1);
    } finally {
      off();
    }
  });
});

async function waitFor(cond: () => boolean, ms = 5_000): Promise<void> {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 20));
  }
}

import { createServer, type Server } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ServiceConnection } from '@shared/profiles/profiles-contract';
import { createConnectionMonitor, tcpProbe } from '../../src/main/connection';
import { generateAccount, startSimulator, type RunningSimulator } from '../../src/main/sim';
import { connectionNews } from '../handlers/service-outage';
import { useServiceHarness } from '../handlers/service-harness';

const monitors: { dispose(): void }[] = [];
afterEach(() => {
  for (const m of monitors.splice(0)) m.dispose();
});

/** A monitor probing every 10 ms, whose probes answer `answers` in turn (no answer once they run out). */
function monitor(answers: boolean[]) {
  const changes: ServiceConnection[] = [];
  const probes: string[] = [];
  const m = createConnectionMonitor({
    emit: (c) => changes.push(c),
    probe: async (url) => {
      probes.push(url);
      return answers.shift() ?? false;
    },
    probeEveryMs: 10,
  });
  monitors.push(m);
  return { m, changes, probes };
}

describe('the connection monitor', () => {
  it('announces only changes: a first answer is no news, a failure is, and so is the return', async () => {
    const { m, changes, probes } = monitor([false, false, true]);
    m.report('p1', 'http://127.0.0.1:1', 'answered');
    m.report('p1', 'http://127.0.0.1:1', 'answered');
    expect(changes).toEqual([]);
    m.report('p1', 'http://127.0.0.1:1', 'no-answer', 'The service does not answer.');
    m.report('p1', 'http://127.0.0.1:1', 'no-answer');
    expect(changes).toEqual([{ profileId: 'p1', reachable: false, message: 'The service does not answer.' }]);
    // Probed until it listens again (the third probe), then announced once and probed no more.
    await vi.waitFor(() => expect(changes).toHaveLength(2));
    expect(changes[1]).toEqual({ profileId: 'p1', reachable: true, message: null });
    expect(probes).toEqual(['http://127.0.0.1:1', 'http://127.0.0.1:1', 'http://127.0.0.1:1']);
    await new Promise((r) => setTimeout(r, 50));
    expect(probes).toHaveLength(3);
  });

  it("remembers whether a profile's service answered at its address, and forgets it for a new address", () => {
    const { m } = monitor([]);
    expect(m.answeredBefore('p1', 'http://a')).toBe(false);
    m.report('p1', 'http://a', 'no-answer');
    expect(m.answeredBefore('p1', 'http://a')).toBe(false);
    m.report('p1', 'http://a', 'answered');
    m.report('p1', 'http://a', 'no-answer');
    expect(m.answeredBefore('p1', 'http://a')).toBe(true);
    m.report('p1', 'http://b', 'no-answer');
    expect(m.answeredBefore('p1', 'http://b')).toBe(false);
    expect(m.answeredBefore('p2', 'http://a')).toBe(false);
  });

  it('a request that gets through ends the probing at once; dispose stops every probe', async () => {
    const { m, changes, probes } = monitor([]);
    m.report('p1', 'http://a', 'no-answer');
    m.report('p2', 'http://b', 'no-answer');
    await vi.waitFor(() => expect(probes.length).toBeGreaterThan(2));
    m.report('p1', 'http://a', 'answered');
    expect(changes.at(-1)).toEqual({ profileId: 'p1', reachable: true, message: null });
    m.dispose();
    const after = probes.length;
    await new Promise((r) => setTimeout(r, 60));
    expect(probes.length).toBeLessThanOrEqual(after + 1);
  });
});

describe('a gateway answering that the service is unavailable', () => {
  it('is announced at its first answer, not probed, and ends with the next answer', async () => {
    const { m, changes, probes } = monitor([true]);
    m.report('p1', 'http://a', 'answered');
    m.report('p1', 'http://a', 'unavailable', 'status 503');
    m.report('p1', 'http://a', 'unavailable');
    expect(changes).toEqual([
      {
        profileId: 'p1',
        reachable: false,
        unavailable: true,
        message:
          'The service is not answering: its gateway says it is unavailable for now (a restart or an overload). Portolan asks again until it answers.',
      },
    ]);
    // A probe would find the gateway's door open and say, wrongly, that the service is back.
    await new Promise((r) => setTimeout(r, 60));
    expect(probes).toHaveLength(0);
    expect(changes).toHaveLength(1);
    // Nothing to wait for here: whoever asks paces its askings itself.
    await m.whenAnswers('p1', 'http://a');
    m.report('p1', 'http://a', 'answered');
    expect(changes.at(-1)).toEqual({ profileId: 'p1', reachable: true, message: null });

    // Unavailable, then gone altogether: probed again, and its return announced by the probe.
    m.report('p1', 'http://a', 'unavailable');
    m.report('p1', 'http://a', 'no-answer', 'refused');
    expect(changes.at(-1)).toEqual({ profileId: 'p1', reachable: false, message: 'refused' });
    await vi.waitFor(() =>
      expect(changes.at(-1)).toEqual({ profileId: 'p1', reachable: true, message: null }),
    );
    expect(probes).toHaveLength(1);
  });
});

describe('a gateway unavailable when nothing asks any more', () => {
  it('stops saying Portolan tries again once no attempt came for a while, and says it again at the next', async () => {
    const changes: ServiceConnection[] = [];
    const m = createConnectionMonitor({ emit: (c) => changes.push(c), quietAfterMs: 80 });
    monitors.push(m);
    m.report('p1', 'http://a', 'answered');
    m.report('p1', 'http://a', 'unavailable');
    // Askings closer together than the quiet spell (a client's retries, a job's pauses) keep it trying.
    for (let i = 0; i < 4; i++) {
      await new Promise((r) => setTimeout(r, 40));
      m.report('p1', 'http://a', 'unavailable');
    }
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ reachable: false, unavailable: true });
    expect(changes[0]!.idle).toBeUndefined();

    // The refresh is cancelled: nothing asks.
    await vi.waitFor(() => expect(changes).toHaveLength(2));
    expect(changes[1]).toEqual({
      profileId: 'p1',
      reachable: false,
      unavailable: true,
      idle: true,
      message:
        'The service was not answering when last asked: its gateway said it was unavailable. Nothing is asking it now; the next search or refresh tells whether it is back.',
    });
    // Asked again, and unavailable again: trying again once more; answered: back.
    m.report('p1', 'http://a', 'unavailable');
    expect(changes[2]).toMatchObject({ reachable: false, unavailable: true });
    expect(changes[2]!.idle).toBeUndefined();
    m.report('p1', 'http://a', 'answered');
    expect(changes[3]).toEqual({ profileId: 'p1', reachable: true, message: null });
    // Answered, nothing is said later of a quiet spell.
    await new Promise((r) => setTimeout(r, 150));
    expect(changes).toHaveLength(4);
  });
});

describe('waiting for a service to answer again', () => {
  it('goes on at once while the service is not known to be down, and after the probe that finds it back', async () => {
    const { m, probes } = monitor([false, false, true]);
    await m.whenAnswers('p1', 'http://a');
    m.report('p1', 'http://a', 'answered');
    await m.whenAnswers('p1', 'http://a');
    m.report('p1', 'http://a', 'no-answer');
    let back = false;
    const waiting = m.whenAnswers('p1', 'http://a').then(() => (back = true));
    await new Promise((r) => setTimeout(r, 15));
    expect(back).toBe(false);
    await waiting;
    expect(probes).toHaveLength(3);
    // Another profile's, or another address's, service going away is not waited for.
    m.report('p2', 'http://b', 'no-answer');
    await m.whenAnswers('p1', 'http://a');
    await m.whenAnswers('p2', 'http://c');
  });

  it('a request that gets through ends the wait too; the signal and disposal end it as an abort', async () => {
    const { m } = monitor([]);
    m.report('p1', 'http://a', 'no-answer');
    const first = m.whenAnswers('p1', 'http://a');
    m.report('p1', 'http://a', 'answered');
    await first;

    m.report('p1', 'http://a', 'no-answer');
    const stop = new AbortController();
    const stopped = m.whenAnswers('p1', 'http://a', stop.signal);
    stop.abort();
    await expect(stopped).rejects.toMatchObject({ name: 'AbortError' });
    await expect(m.whenAnswers('p1', 'http://a', stop.signal)).rejects.toMatchObject({ name: 'AbortError' });

    const left = m.whenAnswers('p1', 'http://a');
    m.dispose();
    await expect(left).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('the TCP probe', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((s) => s.end());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('says whether something listens, without sending a byte', async () => {
    const received: Buffer[] = [];
    server.on('connection', (s) => s.on('data', (d: Buffer) => received.push(d)));
    expect(await tcpProbe(`http://127.0.0.1:${port}/api`, 1000)).toBe(true);
    expect(received).toEqual([]);
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const gone = (closed.address() as { port: number }).port;
    await new Promise<void>((r) => closed.close(() => r()));
    expect(await tcpProbe(`http://127.0.0.1:${gone}`, 1000)).toBe(false);
    expect(await tcpProbe('not a url', 1000)).toBe(false);
  });
});

describe('service.connection from the handlers, against a simulator that goes away and comes back', () => {
  const account = generateAccount('acme');
  const service = useServiceHarness({ account, records: 500, seed: 4, profile: { active: true } });
  let back: RunningSimulator | undefined;
  afterAll(async () => {
    await back?.close();
  });
  const changes = () => connectionNews(service.h);

  it('a count that finds no service announces it; the probe announces its return with no request spent', async () => {
    const { h, sim } = service;
    await h.ok('shipments.count', { request: { firm: 'x' } });
    expect(changes()).toEqual([]);
    const port = Number(new URL(sim.url).port);
    await sim.close();
    const failed = (await h.call('shipments.count', { request: { firm: 'x' } })) as {
      ok: boolean;
      error?: { kind: string; message: string };
    };
    expect(failed.ok).toBe(false);
    // It answered at this address a moment ago: down or restarting, not an address to check.
    expect(failed.error?.kind).toBe('NetworkError');
    expect(failed.error?.message).toBe(
      `The service at ${new URL(sim.url).host} stopped answering (connection refused). It answered earlier at this address, so it is probably down or restarting. Portolan keeps checking, and the status bar says when it answers again; then try again.`,
    );
    expect(changes()).toHaveLength(1);
    expect(changes()[0]!.reachable).toBe(false);

    back = await startSimulator({ port, records: 500, seed: 4, accounts: [account] });
    await vi.waitFor(() => expect(changes()).toHaveLength(2), { timeout: 15_000, interval: 100 });
    // The return is told by the probe (a bare TCP connect, see above), before any request is made.
    expect(changes()[1]).toEqual({ profileId: changes()[0]!.profileId, reachable: true, message: null });
  }, 60_000);
});

describe('service.connection from the handlers, against a gateway answering 503 and then the service', () => {
  const service = useServiceHarness({
    account: generateAccount('acme'),
    records: 500,
    seed: 4,
    // The client's own retries, each answer 300 ms late: the call lasts well past its first answer.
    harness: { retry: { maxAttempts: 4, baseDelayMs: 200, maxDelayMs: 200 } },
    profile: { active: true },
  });
  const changes = () => connectionNews(service.h);

  it('says the service is not answering at the first 503, while the client still retries, and clears with the answer', async () => {
    const { h, sim } = service;
    await h.ok('shipments.count', { request: { firm: 'x' } });
    expect(changes()).toEqual([]);
    sim.setFaults({ errorRate: 1, errorStatuses: [503], latencyMs: 300 });
    let settled = false;
    const counting = h.call('shipments.count', { request: { firm: 'x' } }).finally(() => (settled = true));
    await vi.waitFor(() => expect(changes()).toHaveLength(1), { timeout: 5_000, interval: 10 });
    // Told while the call goes on: the status bar need not wait for its end.
    expect(settled).toBe(false);
    expect(changes()[0]).toMatchObject({ reachable: false, unavailable: true });
    expect(changes()[0]!.message).toMatch(/^The service is not answering: /);

    sim.setFaults({ latencyMs: 300 });
    expect(await counting).toMatchObject({ ok: true });
    expect(changes()).toHaveLength(2);
    expect(changes()[1]).toEqual({ profileId: changes()[0]!.profileId, reachable: true, message: null });
  }, 60_000);
});

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCli } from '../../src/main/sim/cli-options';
import { PATHS, signature } from './helpers';

const dir = mkdtempSync(join(tmpdir(), 'sim-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, content: unknown): string => {
  const p = join(dir, name);
  writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content));
  return p;
};

describe('command line', () => {
  it('reads the documented flags', () => {
    const { options, generated } = parseCli(
      [
        '--port',
        '8787',
        '--records',
        '200000',
        '--seed',
        '7',
        '--api-key',
        'KEY',
        '--latency',
        '20',
        '--error-rate',
        '0.1',
        '--error-statuses',
        '503',
        '--burst-429',
        '10:2',
        '--drop-rate',
        '0.01',
      ],
      { PORTOLAN_SIM_API_SECRET: 'SECRET' },
    );
    expect(options).toMatchObject({ port: 8787, records: 200000, seed: 7, host: '127.0.0.1' });
    expect(options.accounts).toEqual([{ name: 'default', apiKey: 'KEY', apiSecret: 'SECRET' }]);
    expect(options.faults).toEqual({
      latencyMs: 20,
      errorRate: 0.1,
      errorStatuses: [503],
      burst429: { every: 10, count: 2 },
      dropRate: 0.01,
    });
    expect(generated).toEqual([]);
  });

  it('takes the wait of the 429 bursts after their counts', () => {
    expect(parseCli(['--burst-429', '10:2:45']).options.faults).toEqual({
      burst429: { every: 10, count: 2, retryAfter: 45 },
    });
  });

  it('takes the secret from the environment, never from the command line', () => {
    expect(() =>
      parseCli(['--api-key', 'KEY', '--api-secret', 'SECRET'], { PORTOLAN_SIM_API_SECRET: 'S' }),
    ).toThrow(/every user of this machine.*PORTOLAN_SIM_API_SECRET.*--config/);
    expect(() => parseCli(['--api-key', 'KEY'], {})).toThrow(/PORTOLAN_SIM_API_SECRET/);
    // The secret alone (no key) adds no account: the simulator makes one up, as without either.
    expect(parseCli([], { PORTOLAN_SIM_API_SECRET: 'SECRET' }).generated).toHaveLength(1);
  });

  it('makes up an account when none is given', () => {
    const { options, generated } = parseCli([]);
    expect(generated).toHaveLength(1);
    expect(options.accounts).toEqual(generated);
    expect(generated[0]?.apiSecret.length).toBeGreaterThanOrEqual(32);
    expect(parseCli([]).generated[0]?.apiKey).not.toBe(generated[0]?.apiKey);
  });

  it('takes accounts, limits and faults from a config file; flags win', () => {
    const path = file('ok.json', {
      port: 9000,
      records: 1234,
      accounts: [
        {
          name: 'main',
          apiKey: 'k1',
          apiSecret: 's1',
          limits: { 'shipments/search': 100000, dailyRequest: -1 },
        },
        { name: 'eu', apiKey: 'k1', apiSecret: 's1' },
      ],
      faults: { errorRate: 0.5, seed: 3 },
    });
    const { options } = parseCli(['--config', path, '--port', '0', '--error-rate', '0.2']);
    expect(options.port).toBe(0);
    expect(options.records).toBe(1234);
    expect(options.accounts.map((a) => a.name)).toEqual(['main', 'eu']);
    expect(options.accounts[0]?.limits).toEqual({ 'shipments/search': 100000, dailyRequest: -1 });
    expect(options.faults).toEqual({ errorRate: 0.2, seed: 3 });
  });

  it.each([
    ['not JSON', '{ nope', /^config file .*: /],
    [
      'an unknown metric',
      { accounts: [{ name: 'a', apiKey: 'k', apiSecret: 's', limits: { bogus: 1 } }] },
      /accounts\[0\]\.limits/,
    ],
    ['a missing secret', { accounts: [{ name: 'a', apiKey: 'k' }] }, /accounts\[0\]\.apiSecret/],
    ['a rate above 1', { faults: { dropRate: 3 } }, /faults\.dropRate/],
    ['an unknown field', { colour: 'red' }, /colour/],
  ])('names the file and the problem for %s', (_what, content, pattern) => {
    const path = file(`bad-${Math.random().toString(36).slice(2)}.json`, content);
    expect(() => parseCli(['--config', path])).toThrow(pattern);
    expect(() => parseCli(['--config', path])).toThrow(path);
  });

  it.each([
    [['--api-key', 'k']],
    [['--port', 'abc']],
    [['--records', '1.5']],
    [['--burst-429', '3']],
    [['--burst-429', '3:1:x']],
    [['--error-rate', '2']],
    [['--unknown-flag']],
  ])('rejects %j', (argv) => {
    expect(() => parseCli(argv)).toThrow();
  });

  it('runs as a process, answers signed requests and stops on SIGTERM', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/main/sim/cli.ts', '--port', '0', '--records', '500', '--api-key', 'K'],
      {
        cwd: resolve(import.meta.dirname, '../..'),
        env: { ...process.env, PORTOLAN_SIM_API_SECRET: 'S' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    try {
      const url = await new Promise<string>((ok, fail) => {
        const timer = setInterval(() => {
          const m = /listening on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
          if (m?.[1]) {
            clearInterval(timer);
            ok(m[1]);
          }
        }, 50);
        void exited.then(() => {
          clearInterval(timer);
          fail(new Error(`exited early: ${out}`));
        });
      });
      expect(out).not.toContain('API secret: S'); // a secret the user chose is not echoed
      const res = await fetch(new URL(PATHS.usage, url), {
        headers: { 'X-API-KEY': 'K', 'X-SIGNATURE': signature('', 'S') },
      });
      expect(res.status).toBe(200);
      expect(Object.keys((await res.json()) as object)).toEqual(['default']);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 30_000);
});

import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileSink, createLogger, createMemorySink, registerSecret } from '../../src/main/log';

describe('createLogger', () => {
  it('writes one JSON line per entry with ts, level, scope, msg and the fields', () => {
    const sink = createMemorySink();
    const log = createLogger({ sink, scope: 'main' });
    log.info('request', { method: 'POST', status: 200, ms: 12 });
    expect(sink.lines).toHaveLength(1);
    const entry = JSON.parse(sink.lines[0]!) as Record<string, unknown>;
    expect(Object.keys(entry).slice(0, 4)).toEqual(['ts', 'level', 'scope', 'msg']);
    expect(entry).toMatchObject({
      level: 'info',
      scope: 'main',
      msg: 'request',
      method: 'POST',
      status: 200,
      ms: 12,
    });
    expect(Number.isNaN(Date.parse(entry.ts as string))).toBe(false);
    expect(sink.lines[0]).not.toContain('\n');
  });

  it('drops entries below its level', () => {
    const sink = createMemorySink();
    const log = createLogger({ sink, level: 'warn' });
    log.debug('d');
    log.info('i');
    log.warn('w');
    log.error('e');
    expect(sink.lines.map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual(['w', 'e']);
  });

  it('child loggers extend the scope and share sink and level', () => {
    const sink = createMemorySink();
    const log = createLogger({ sink, level: 'debug', scope: 'main' });
    log.child('api').child('retry').debug('x');
    createLogger({ sink }).child('solo').info('y');
    expect(sink.lines.map((l) => (JSON.parse(l) as { scope: string }).scope)).toEqual([
      'main.api.retry',
      'solo',
    ]);
  });

  it('fields cannot overwrite ts, level, scope or msg', () => {
    const sink = createMemorySink();
    createLogger({ sink, scope: 's' }).warn('real', { msg: 'fake', level: 'debug', scope: 'x' });
    expect(JSON.parse(sink.lines[0]!)).toMatchObject({ msg: 'real', level: 'warn', scope: 's' });
  });

  it('serialises errors with their stack, and redacts a secret inside the message and the stack', () => {
    const secret = 'sk-logger-secret-3141';
    const un = registerSecret(secret);
    try {
      const sink = createMemorySink();
      const err = new Error(`boom with ${secret}`);
      createLogger({ sink }).error('failed', { error: err });
      const entry = JSON.parse(sink.lines[0]!) as { error: { name: string; message: string; stack: string } };
      expect(entry.error.name).toBe('Error');
      expect(entry.error.message).toContain('boom with');
      expect(entry.error.stack).toContain('logger.test.ts');
      expect(sink.lines[0]).not.toContain(secret);
    } finally {
      un();
    }
  });

  it('keeps lines whole and parseable beside a registered value too short to be a secret', () => {
    const releases = [registerSecret('s'), registerSecret('t')];
    try {
      const sink = createMemorySink();
      const log = createLogger({ sink, scope: 'services' });
      log.warn('Could not reach the service at 127.0.0.1:1. Check the base URL.', { status: 'refused' });
      const entry = JSON.parse(sink.lines[0]!) as Record<string, unknown>;
      expect(entry).toMatchObject({
        msg: 'Could not reach the service at 127.0.0.1:1. Check the base URL.',
        scope: 'services',
        status: 'refused',
      });
      expect(sink.lines[0]).not.toContain('[REDACTED]');
    } finally {
      for (const release of releases) release();
    }
  });

  it('masks a registered secret whole in the message, the fields and an error, and the line still parses', () => {
    const secret = 'Xs9-logger-whole-token';
    const un = registerSecret(secret);
    try {
      const sink = createMemorySink();
      const err = new Error(`rejected:${secret}\nretry`);
      createLogger({ sink }).error(`sent ${secret}`, { note: `pair key_${secret}`, error: err });
      const line = sink.lines[0]!;
      expect(line).not.toContain(secret);
      expect(line).not.toContain('whole-token');
      const entry = JSON.parse(line) as { msg: string; note: string; error: { message: string } };
      expect(entry.msg).toBe('sent [REDACTED]');
      expect(entry.note).toBe('pair [REDACTED]');
      expect(entry.error.message).toBe('rejected:[REDACTED]\nretry');
    } finally {
      un();
    }
  });

  it('masks fields by name (secrets, signatures, API keys) even when nothing was registered', () => {
    const sink = createMemorySink();
    createLogger({ sink }).info('creds', {
      apiSecret: 'never-show-this-one',
      headers: { 'X-SIGNATURE': 'short-sig', 'X-API-KEY': 'pk_live_9876543210WXYZ' },
      password: 'hunter2',
    });
    const line = sink.lines[0]!;
    expect(line).not.toContain('never-show-this-one');
    expect(line).not.toContain('short-sig');
    expect(line).not.toContain('hunter2');
    expect(line).not.toContain('pk_live_9876543210');
    expect(line).toContain('WXYZ');
  });

  it('copes with cycles, BigInt, binary data and a throwing sink', () => {
    const sink = createMemorySink();
    const cyclic: Record<string, unknown> = { name: 'a' };
    cyclic.self = cyclic;
    createLogger({ sink }).info('odd', { cyclic, big: 10n ** 20n, bytes: Buffer.alloc(2048) });
    const entry = JSON.parse(sink.lines[0]!) as Record<string, unknown>;
    expect(entry.cyclic).toEqual({ name: 'a', self: '[Circular]' });
    expect(entry.big).toBe('100000000000000000000');
    expect(entry.bytes).toBe('[2048 bytes]');

    const broken = createLogger({
      sink: {
        write: () => {
          throw new Error('disk full');
        },
      },
    });
    expect(() => broken.error('still fine')).not.toThrow();
  });
});

describe('createFileSink', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'portolan-log-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('appends lines to a new owner-only file, and appends to an existing one', async () => {
    const path = join(dir, 'logs', 'app.log');
    const a = createFileSink(path);
    a.write('one');
    a.write('two\n');
    await a.close();
    const b = createFileSink(path);
    b.write('three');
    await b.close();
    expect(readFileSync(path, 'utf8')).toBe('one\ntwo\nthree\n');
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('rotates by size, keeps `keep` old files, and never splits or loses the newest lines', async () => {
    const path = join(dir, 'app.log');
    const sink = createFileSink(path, { maxBytes: 100, keep: 2 });
    const lines = Array.from(
      { length: 30 },
      (_, i) => `line-${String(i).padStart(2, '0')}-${'x'.repeat(20)}`,
    );
    for (const l of lines) sink.write(l); // 29 bytes each with the newline: 3 per file
    await sink.close();

    expect(readdirSync(dir).sort()).toEqual(['app.log', 'app.log.1', 'app.log.2']);
    const read = (p: string): string[] => readFileSync(p, 'utf8').trimEnd().split('\n');
    for (const f of ['app.log', 'app.log.1', 'app.log.2']) {
      expect(statSync(join(dir, f)).size).toBeLessThanOrEqual(100);
    }
    // Oldest kept file first, live file last: together the most recent lines, in order.
    const kept = [...read(`${path}.2`), ...read(`${path}.1`), ...read(path)];
    expect(kept).toEqual(lines.slice(lines.length - kept.length));
    expect(kept.length).toBe(9);
  });

  it('counts an existing file’s size toward rotation', async () => {
    const path = join(dir, 'app.log');
    writeFileSync(path, 'x'.repeat(90) + '\n');
    const sink = createFileSink(path, { maxBytes: 100, keep: 1 });
    sink.write('this line does not fit');
    await sink.close();
    expect(readFileSync(path, 'utf8')).toBe('this line does not fit\n');
    expect(readFileSync(`${path}.1`, 'utf8')).toBe('x'.repeat(90) + '\n');
  });
});

import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, type BridgeResult } from '@shared/ipc/errors';
import { createDispatcher } from '../../src/main/handlers';
import { createHarness, type Harness } from './helpers';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

type Failure = {
  ok: false;
  error: { kind: string; message: string; issues?: { path: string; message: string }[] };
};

describe('dispatcher', () => {
  it('answers a trusted call with its value', async () => {
    const r = (await h.call('app.info')) as BridgeResult<{ version: string; host: string; platform: string }>;
    expect(r).toEqual({
      ok: true,
      value: { version: '0.0.0-test', host: 'browser', platform: process.platform },
    });
  });

  it('refuses a call from a foreign sender, whatever the input', async () => {
    const r = (await h.dispatch('profiles.list', undefined, 'foreign')) as Failure;
    expect(r.ok).toBe(false);
    expect(r.error.kind).toBe('Forbidden');
    const create = (await h.dispatch(
      'profiles.create',
      { name: 'x', baseUrl: 'https://a.example' },
      'foreign',
    )) as Failure;
    expect(create.error.kind).toBe('Forbidden');
    // Nothing was created by the refused call.
    const list = (await h.call('profiles.list')) as { ok: true; value: { profiles: unknown[] } };
    expect(list.value.profiles).toEqual([]);
  });

  it('treats a sender check that throws as untrusted', async () => {
    const dispatch = createDispatcher<string>({
      handlers: h.handlers,
      logger: h.logger,
      isTrustedSender: () => {
        throw new Error('frame gone');
      },
    });
    expect(((await dispatch('app.info', undefined, 'x')) as Failure).error.kind).toBe('Forbidden');
  });

  it('refuses unknown channels, including names that exist on every object', async () => {
    for (const channel of ['nope', '__proto__', 'constructor', 'toString', 'dispose', 'app.info ', '']) {
      const r = (await h.call(channel)) as Failure;
      expect(r.ok, channel).toBe(false);
      expect(r.error.kind, channel).toBe('NotFound');
    }
  });

  it('rejects bad input with field-level issues', async () => {
    const r = (await h.call('shipments.search', {
      request: { size: 5, hs_codes: ['12a'], product_detail: 'ab', bogus: 1 },
    })) as Failure;
    expect(r.error.kind).toBe('InvalidInput');
    const paths = r.error.issues?.map((i) => i.path).sort();
    expect(paths).toEqual(['request.bogus', 'request.hs_codes[0]', 'request.product_detail', 'request.size']);
    expect(r.error.issues?.find((i) => i.path === 'request.size')?.message).toBe('at least 10');
    // The issues keep their paths; the message says them as the form labels the fields.
    expect(r.error.message).toContain('HS codes: “12a”: digits only');

    const noName = (await h.call('profiles.create', { name: ' ', baseUrl: 'ftp://x' })) as Failure;
    expect(noName.error.issues).toEqual(
      expect.arrayContaining([
        { path: 'name', message: 'a name is required' },
        { path: 'baseUrl', message: 'a full http:// or https:// address' },
      ]),
    );
    expect(((await h.call('app.info', { extra: true })) as Failure).error.kind).toBe('InvalidInput');
  });

  it('passes an AppError on with its kind', async () => {
    const r = (await h.call('profiles.setActive', { id: 'no-such-profile' })) as Failure;
    expect(r.error).toEqual({ kind: 'NotFound', message: expect.stringMatching(/no longer exists/) });
    const q = (await h.call('usage.get', {})) as Failure;
    expect(q.error.kind).toBe('NoCredentials');
  });

  it('turns any other throw into Internal with a generic message; details only in the redacted log', async () => {
    const secret = 'ultra-secret-value-0123456789';
    const unregister = (await import('../../src/main/log')).registerSecret(secret);
    try {
      const dispatch = createDispatcher<string>({
        handlers: {
          ...h.handlers,
          'app.info': async () => {
            throw new TypeError(`exploded while holding ${secret}`);
          },
          'profiles.list': async () => {
            throw new AppError('Conflict', `conflict mentioning ${secret}`);
          },
        },
        logger: h.logger,
        isTrustedSender: () => true,
      });
      const r = (await dispatch('app.info', undefined, 'x')) as Failure;
      expect(r.error.kind).toBe('Internal');
      expect(r.error.message).not.toMatch(/exploded|TypeError/);
      const c = (await dispatch('profiles.list', undefined, 'x')) as Failure;
      expect(c.error.kind).toBe('Conflict');
      expect(JSON.stringify([r, c])).not.toContain(secret);
      const log = await readFile(h.logPath, 'utf8');
      expect(log).toContain('exploded while holding');
      expect(log).not.toContain(secret);
    } finally {
      unregister();
    }
  });

  it("says a refused filter in the form's words, whichever call carried it: labels, never the service's field names", async () => {
    const backwards = { start_date: '2025-12-31', end_date: '2025-01-01' };
    const cases: [string, unknown, string[]][] = [
      // The Watched page's cost check of a preset (the watch's own question).
      ['watch.preview', { request: backwards, name: 'Backwards' }, ['Date to: must not be before Date from']],
      // Fetch all's cost check and its start.
      [
        'jobs.estimate',
        { request: { ...backwards, hs_codes: ['7208', '72a8'] } },
        ['Date to: must not be before Date from', 'HS codes: “72a8”: digits only'],
      ],
      [
        'jobs.start',
        { kind: 'shipments', request: { start_date: '2025-02-30', product_detail: 'ab' } },
        [
          'Date from: not a whole date: type it as yyyy-mm-dd (e.g. 2024-03-31) or pick it',
          'Product description: at least 3 characters',
        ],
      ],
      ['shipments.search', { request: { size: 5 } }, ['Records to download: at least 10']],
    ];
    for (const [channel, input, said] of cases) {
      const r = (await h.call(channel, input)) as Failure;
      expect(r.error.kind, channel).toBe('InvalidInput');
      for (const words of said) expect(r.error.message, channel).toContain(words);
      expect(r.error.message, channel).not.toMatch(
        /start_date|end_date|hs_codes|product_detail|size|request\./,
      );
    }
  });

  it("says a refused grid view in the grid's words, for an export and a library block: Quick filter, a column by its header", async () => {
    const view = {
      quickFilter: 'steel '.repeat(100),
      filterModel: { arrivalDate: { filterType: 'date', type: 'equals', dateFrom: '2024-13-45' } },
    };
    const cases: [string, unknown][] = [
      ['export.start', { source: { datasetId: 'd1', view }, format: 'xlsx' }],
      ['library.getRows', { id: 'd1', startRow: 0, endRow: 100, ...view }],
    ];
    for (const [channel, input] of cases) {
      const r = (await h.call(channel, input)) as Failure;
      expect(r.error.kind, channel).toBe('InvalidInput');
      expect(r.error.message, channel).toContain('Quick filter: at most 500 characters');
      expect(r.error.message, channel).toContain('Filter of Arrival Date: a real date, as yyyy-MM-dd');
      expect(r.error.message, channel).not.toMatch(/quickFilter|filterModel|arrivalDate|source\.|view\./);
    }
  });

  it('has no channel that opens links or reads a path the window names', async () => {
    // shell.openExternal and library.import {path} were removed: the window names files by handle only.
    const link = (await h.call('shell.openExternal', { url: 'https://www.iso.org/' })) as Failure;
    expect(link.error.kind).toBe('NotFound');
    const byPath = (await h.call('library.import', { path: h.logPath })) as Failure;
    expect(byPath.error.kind).toBe('InvalidInput');
    expect(byPath.error.message).not.toContain('portolan.log');
    const forged = (await h.call('library.import', { file: `fh_${'A'.repeat(32)}` })) as Failure;
    expect(forged.error.kind).toBe('NotFound');
  });
});

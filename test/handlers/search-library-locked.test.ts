import { fork, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportStarted } from '@shared/export/export-contract';
import type { BridgeResult } from '@shared/ipc/errors';
import type { DatasetView, RowsBlockView } from '@shared/library/library-contract';
import type { ShipmentSearchAnswer } from '@shared/query/query-contract';
import { useServiceHarness } from './service-harness';

/**
 * A shipment search while another program holds the library file (a second Portolan, a script), so
 * the library cannot be opened at all: the records come with the answer, and main keeps them too, so
 * they can be exported meanwhile and saved under the same id once the other program lets go.
 */
const account = { name: 'main', apiKey: 'ak_test_locked_41c2', apiSecret: 'secret-locked-9d03' };

let holder: ChildProcess;
let exited: Promise<unknown>;

const errorOf = (r: unknown) => (r as Extract<BridgeResult<unknown>, { ok: false }>).error;

const service = useServiceHarness({
  account,
  records: 400,
  seed: 3,
  profile: { name: 'Locked', accountName: null },
});

beforeAll(async () => {
  // Held before the app first opens its library.
  holder = fork(
    join(import.meta.dirname, '../helpers/hold-library.mjs'),
    [join(service.h.dataDir, 'library.duckdb')],
    {
      stdio: 'ignore',
    },
  );
  exited = new Promise((resolve) => holder.once('exit', resolve));
  await new Promise((resolve, reject) => {
    holder.once('message', resolve);
    holder.once('error', reject);
  });
});
afterAll(async () => {
  if (holder && holder.exitCode === null) holder.kill('SIGKILL');
  await exited;
});

describe('a search while another program holds the library', () => {
  it('keeps the answer: its records cross, it exports, and Save again stores it once the library is free', async () => {
    const answer = await service.h.ok<ShipmentSearchAnswer>('shipments.search', {
      profileId: service.profileId,
      request: { size: 120 },
    });
    expect(answer.datasetId).toBeNull();
    expect(answer.unsaved?.length).toBe(120);
    const failed = answer.saveFailed!;
    expect(failed.records).toBe(120);
    expect(failed.reason).toMatch(/^Another program has Portolan's library open \(node, process \d+\)/);
    // Said beside Save again, not the Retry other pages offer.
    expect(failed.reason).toMatch(/Close it first\.$/);
    const id = failed.datasetId;

    const started = await service.h.ok<ExportStarted>('export.start', {
      source: { datasetId: id },
      format: 'csv',
    });
    await service.h.jobFinished(started.jobId, 10_000);
    const csv = await readFile(started.path, 'utf8');
    expect(csv.trim().split(/\r?\n/)).toHaveLength(121);

    const still = await service.h.call('library.saveAgain', { id });
    expect(errorOf(still)).toMatchObject({
      kind: 'StorageLocked',
      message: expect.stringMatching(
        /^It still could not be saved, and it is still kept\. Another program/,
      ) as unknown,
    });

    holder.send('let go');
    await exited;
    const saved = await service.h.ok<DatasetView>('library.saveAgain', { id });
    expect(saved).toMatchObject({ id, storedRows: 120, kind: 'shipments' });
    expect((await service.h.ok<DatasetView[]>('library.list')).map((d) => d.id)).toEqual([id]);
    const rows = await service.h.ok<RowsBlockView>('library.getRows', { id, startRow: 0, endRow: 120 });
    expect(rows.rows.map((r) => r.hashId)).toEqual(answer.unsaved!.map((r) => r.hashId));
  });
});

import { resolve } from 'node:path';
import type { EventChannel } from '@shared/ipc/channels';
import type { BridgeResult } from '@shared/ipc/errors';
import { createAnalysisHandlers } from '../../src/main/handlers/analysis-handlers';
import { createResolutionHandlers } from '../../src/main/handlers/resolution-handlers';
import { openFixture } from '../analysis/fixtures';
import { shipment } from './helpers';
import { dispatchOver } from '../helpers/page-dispatch';

export interface FirmsPageBackend {
  invoke(channel: string, input: unknown): Promise<BridgeResult<unknown>>;
  /** Main's announcements, as the window's bridge would get them. */
  onEvent(listener: (event: EventChannel, payload: unknown) => void): void;
  datasetId: string;
  close(): Promise<void>;
}

/** Importers as the records write them: one firm under four spellings, a close call, two firms apart. */
export const PARTIES = [
  { name: 'Acme Co Ltd', rows: 4 },
  { name: 'ACME COMPANY LIMITED', rows: 3 },
  { name: 'ACME CO., LTD.', rows: 2 },
  { name: 'Acme Co Ltd (Shanghai)', rows: 1, tax: '' },
  { name: 'Apex Trading', rows: 5, tax: '913100001' },
  { name: 'Apex Tradinq', rows: 1, tax: '913100002' },
  { name: 'Blue River Foods', rows: 2 },
] as const;

/**
 * The real resolution and analysis calls behind the real dispatcher, in process, over a library with
 * the importers above (all in China) shipping from one US exporter: for the Firms page's renderer test.
 */
export async function startFirmsPageBackend(): Promise<FirmsPageBackend> {
  const fx = await openFixture();
  const records: Record<string, string>[] = [];
  for (const p of PARTIES) {
    for (let i = 0; i < p.rows; i++) {
      records.push(
        shipment(records.length, {
          importerName: p.name,
          importerCountryCode: 'CN',
          importerCountry: 'China',
          importerTaxId: 'tax' in p ? p.tax : '',
          exporterName: 'Harbor Supply Inc.',
          exporterCountryCode: 'US',
          exporterCountry: 'United States',
        }),
      );
    }
  }
  const meta = await fx.library.saveRecords(
    { kind: 'shipments', request: {}, name: 'China importers' },
    records,
  );
  const listeners: ((event: EventChannel, payload: unknown) => void)[] = [];
  const slice = {
    ...createResolutionHandlers({
      library: async () => fx.library,
      events: { emit: (event, payload) => listeners.forEach((l) => l(event, payload)) },
    }),
    ...createAnalysisHandlers({
      library: async () => fx.library,
      resourcesDir: resolve(import.meta.dirname, '../../resources'),
    }),
  };
  return {
    invoke: dispatchOver(slice, 'page-test'),
    onEvent: (l) => listeners.push(l),
    datasetId: meta.id,
    close: () => fx.cleanup(),
  };
}

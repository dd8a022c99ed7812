/**
 * The service simulator: an HTTP server on 127.0.0.1 that behaves like the Trade Shipment and Firm
 * Query Service (see docs/simulator.md). Plain Node, no Electron; embeddable by tests, benchmarks and
 * the app's demo workspace, and runnable alone through `npm run sim`.
 */
export type { SimAccount, SimFaults, SimOptions, RunningSimulator } from './types';
export type { SimDataset, SimFirm } from './dataset';
export { DATA_START, DATA_END } from './dataset';
export { FIRM_PAGE_SIZE } from './query';
export { startSimulator, generateAccount, DEFAULT_RECORDS } from './server';

import { buildHsIndex, type HsIndex } from './hs-index';

export { describeHs, searchHs, type HsEntry, type HsIndex } from './hs-index';

let loading: Promise<HsIndex> | null = null;

/** Loads and parses the nomenclature once, on first use, as a separate chunk. */
export function loadHsIndex(): Promise<HsIndex> {
  loading ??= import('../../../../../resources/data/hs-codes.csv?raw').then((m) => buildHsIndex(m.default));
  return loading;
}

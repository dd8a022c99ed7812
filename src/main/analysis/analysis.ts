import type {
  AnalysisDataset,
  FirmGrouping,
  FirmProfile,
  FirmRole,
  Measure,
  SnapshotDiff,
  SummaryKind,
  SummaryResult,
  UnitValues,
} from '@shared/analysis/analysis-contract';
import { AppError } from '@shared/ipc/errors';
import type { Library } from '../library';
import { snapshotDiff } from './diff';
import { firmProfile } from './firm-profile';
import { ensureHsNames } from './reference';
import { summary } from './summaries';
import { unitValues } from './unit-values';

export interface AnalysisOptions {
  /** resources/data/hs-codes.csv */
  hsCodesCsvPath: string;
}

export interface Analysis {
  datasets(): Promise<AnalysisDataset[]>;
  summary(
    datasetId: string,
    kind: SummaryKind,
    opts?: { measure?: Measure; limit?: number; firms?: FirmGrouping },
  ): Promise<SummaryResult>;
  /** One party by its UrlCode, or a resolved firm (`{ firmId }`) with all its spellings. */
  firmProfile(
    datasetId: string,
    firm: string | { firmId: string },
    opts?: { limit?: number },
  ): Promise<FirmProfile>;
  /** USD per kg by HS code, firm and partner country, with outliers within each HS code flagged. */
  unitValues(datasetId: string, role: FirmRole, opts?: { limit?: number; hs?: string }): Promise<UnitValues>;
  diff(
    baseId: string,
    compareId: string,
    role: FirmRole,
    opts?: { limit?: number; firms?: FirmGrouping },
  ): Promise<SnapshotDiff>;
}

/** The analysis views over the library's DuckDB file. Plain Node; every figure is computed in SQL. */
export function createAnalysis(library: Library, opts: AnalysisOptions): Analysis {
  const db = library.reader;

  async function shipmentsDataset(id: string): Promise<void> {
    const meta = await library.get(id);
    if (meta.kind !== 'shipments') {
      throw new AppError(
        'InvalidInput',
        `"${meta.name}" is a firm list; analysis works on shipment datasets.`,
      );
    }
    await ensureHsNames(db, opts.hsCodesCsvPath);
  }

  return {
    async datasets() {
      const list = await library.list({ kind: 'shipments' });
      return list.map((m) => ({ id: m.id, name: m.name, fetchedAt: m.fetchedAt, storedRows: m.storedRows }));
    },
    async summary(datasetId, kind, o = {}) {
      await shipmentsDataset(datasetId);
      const firms = o.firms ?? 'asWritten';
      if (firms === 'resolved') await library.firms.resolve();
      return summary(db, datasetId, kind, o.measure ?? 'shipments', o.limit ?? 25, firms);
    },
    async firmProfile(datasetId, firm, o = {}) {
      await shipmentsDataset(datasetId);
      if (typeof firm !== 'string') await library.firms.resolve();
      return firmProfile(
        db,
        datasetId,
        typeof firm === 'string' ? { urlCode: firm } : { firmId: firm.firmId },
        o.limit ?? 25,
      );
    },
    async unitValues(datasetId, role, o = {}) {
      await shipmentsDataset(datasetId);
      return unitValues(db, datasetId, role, o);
    },
    async diff(baseId, compareId, role, o = {}) {
      await shipmentsDataset(baseId);
      await shipmentsDataset(compareId);
      const firms = o.firms ?? 'asWritten';
      if (firms === 'resolved') await library.firms.resolve();
      return snapshotDiff(db, baseId, compareId, role, o.limit ?? 5000, firms);
    },
  };
}

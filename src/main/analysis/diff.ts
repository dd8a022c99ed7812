import type {
  DiffRow,
  DiffStatus,
  FirmGrouping,
  FirmRole,
  SnapshotDiff,
} from '@shared/analysis/analysis-contract';
import { resolvedFirmJoin, toNumber, type LibraryReader } from '../library';
import { amount, col, textKey } from './sql';

const count = (n: number): string => n.toLocaleString('en-US');

/**
 * What makes two datasets a poor pair to compare: different questions (their filters, paging aside,
 * differ), or a dataset that holds fewer records than matched its query (a size-capped search, a
 * partial fetch), where every firm outside the sample looks new or lost.
 */
async function comparability(db: LibraryReader, baseId: string, compareId: string): Promise<string[]> {
  const rows = await db.all(
    `SELECT id, name, filter_key, stored_rows, reported_total FROM datasets WHERE id IN ($1, $2)`,
    [baseId, compareId],
  );
  const base = rows.find((r) => r.id === baseId);
  const compare = rows.find((r) => r.id === compareId);
  if (!base || !compare) return [];
  const warnings: string[] = [];
  if (base.filter_key !== compare.filter_key) {
    warnings.push(
      `“${String(base.name)}” and “${String(compare.name)}” answer different queries: firms new or lost between them may reflect the filters, not a change in trade.`,
    );
  }
  for (const d of baseId === compareId ? [base] : [base, compare]) {
    const stored = toNumber(d.stored_rows);
    const reported =
      d.reported_total === null || d.reported_total === undefined ? null : toNumber(d.reported_total);
    if (reported !== null && stored < reported) {
      warnings.push(
        `“${String(d.name)}” holds ${count(stored)} of the ${count(reported)} records that matched its query: firms outside that sample show as new or lost.`,
      );
    }
  }
  return warnings;
}

const money = (v: unknown): number | null =>
  v === null || v === undefined ? null : Math.round(Number(v) * 100) / 100;

/**
 * Firms of one role in two shipment datasets side by side: new in `compare`, lost from `base`, or kept,
 * with shipment and USD FOB changes. Firms are parties by UrlCode (`asWritten`; shipments without a
 * firm code are left out, they cannot be matched), or resolved firms (`resolved`; a firm is kept when
 * any of its spellings appears in both, and shipments whose party has neither name nor code are left
 * out). Ordered new, lost, kept; within each by the size of the change.
 */
export async function snapshotDiff(
  db: LibraryReader,
  baseId: string,
  compareId: string,
  role: FirmRole,
  limit: number,
  firms: FirmGrouping = 'asWritten',
): Promise<SnapshotDiff> {
  const resolved = firms === 'resolved';
  const key = resolved ? 'fk.firm_id' : textKey(`${role}UrlCode`);
  const side = (param: string) => `
    SELECT k, ${resolved ? 'arg_max(name, n_name)' : 'max(name)'} AS name, max(cc) AS cc, count(*) AS n, sum(fob) AS fob
      FROM (SELECT ${key} AS k, ${col(`${role}Name`)} AS name, ${col(`${role}CountryCode`)} AS cc, ${amount('usdFob')} AS fob
                   ${resolved ? `, count(*) OVER (PARTITION BY ${key}, ${col(`${role}Name`)}) AS n_name` : ''}
              FROM shipment_rows s ${resolved ? resolvedFirmJoin(role, 'fk', 's') : ''} WHERE dataset_id = ${param})
     WHERE k IS NOT NULL GROUP BY k`;
  const rows = await db.all(
    `WITH a AS (${side('$1')}), b AS (${side('$2')}),
     joined AS (
       SELECT coalesce(b.k, a.k) AS k, coalesce(b.name, a.name) AS name, coalesce(b.cc, a.cc) AS cc,
              CASE WHEN a.k IS NULL THEN 'new' WHEN b.k IS NULL THEN 'lost' ELSE 'kept' END AS status,
              coalesce(a.n, 0) AS n_before, coalesce(b.n, 0) AS n_after, a.fob AS fob_before, b.fob AS fob_after
         FROM a FULL OUTER JOIN b ON a.k = b.k
     )
     SELECT *, (SELECT count(*) FILTER (WHERE status = 'new') FROM joined) AS c_new,
               (SELECT count(*) FILTER (WHERE status = 'lost') FROM joined) AS c_lost,
               (SELECT count(*) FILTER (WHERE status = 'kept') FROM joined) AS c_kept
       FROM joined
      ORDER BY CASE status WHEN 'new' THEN 0 WHEN 'lost' THEN 1 ELSE 2 END,
               abs(n_after - n_before) DESC, abs(coalesce(fob_after, 0) - coalesce(fob_before, 0)) DESC, k
      LIMIT $3`,
    [baseId, compareId, limit],
  );
  const first = rows[0];
  const counts: Record<DiffStatus, number> = {
    new: toNumber(first?.c_new),
    lost: toNumber(first?.c_lost),
    kept: toNumber(first?.c_kept),
  };
  const out = rows.map((r): DiffRow => {
    const before = money(r.fob_before);
    const after = money(r.fob_after);
    const nBefore = toNumber(r.n_before);
    const nAfter = toNumber(r.n_after);
    return {
      role,
      firmId: resolved ? String(r.k) : null,
      urlCode: resolved ? '' : String(r.k),
      name: r.name === null || r.name === undefined ? '' : String(r.name),
      countryCode: r.cc === null || r.cc === undefined ? '' : String(r.cc),
      status: r.status === 'new' ? 'new' : r.status === 'lost' ? 'lost' : 'kept',
      shipmentsBefore: nBefore,
      shipmentsAfter: nAfter,
      shipmentsChange: nAfter - nBefore,
      usdFobBefore: before,
      usdFobAfter: after,
      usdFobChange:
        before === null && after === null ? null : Math.round(((after ?? 0) - (before ?? 0)) * 100) / 100,
    };
  });
  const all = counts.new + counts.lost + counts.kept;
  return {
    baseId,
    compareId,
    role,
    firms,
    counts,
    rows: out,
    omitted: Math.max(0, all - out.length),
    warnings: await comparability(db, baseId, compareId),
  };
}

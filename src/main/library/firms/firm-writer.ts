import type { DuckDBConnection } from '@duckdb/node-api';
import type { PartyRef, Verdict } from '@shared/resolution/resolution-contract';
import { rebuildFirms, type ResolutionStep, type ResolutionSummary } from './resolve';

/** An analyst's decision on two spellings, as stored. */
export interface StoredDecision {
  id: string;
  verdict: Verdict;
  a: PartyRef;
  b: PartyRef;
  decidedAt: string;
}

/**
 * The firm tables' writes inside one unit of work (`library.write(tx => tx.firms…)`): the analyst's
 * decisions and the rebuilt resolution commit with whatever else the unit writes, or not at all.
 */
export class FirmWriter {
  constructor(private readonly conn: DuckDBConnection) {}

  async deleteDecision(id: string): Promise<void> {
    await this.conn.run(`DELETE FROM firm_decisions WHERE id = $1`, [id]);
  }

  async addDecision(d: StoredDecision): Promise<void> {
    await this.conn.run(`INSERT INTO firm_decisions VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, [
      d.id,
      d.verdict,
      d.a.country,
      d.a.name,
      d.a.code,
      d.b.country,
      d.b.name,
      d.b.code,
      d.decidedAt,
    ]);
  }

  /** Rebuilds every firm_* result table (all but the decisions) from the library as it is in this unit. */
  rebuild(
    fingerprint: string,
    opts: { onStep?: (step: ResolutionStep) => void } = {},
  ): Promise<ResolutionSummary> {
    return rebuildFirms(this.conn, fingerprint, opts);
  }
}

import type { AliasFile, DecisionView, ResolutionStatus } from '@shared/resolution/resolution-contract';
import { ALIAS_FILE_FORMAT, ALIAS_FILE_VERSION } from '@shared/resolution/resolution-contract';
import type { BridgeError, BridgeResult } from '@shared/ipc/errors';
import { getApi } from '../../bridge/api';

/**
 * What one of the analyst's actions did to the decisions: a merge, a split or a verdict adds
 * decisions and may overrule earlier ones. Undoing it takes the added ones back and restores the
 * overruled ones, so the library's decisions are exactly what they were before.
 */
export interface DecisionChange {
  /** What was done, in the analyst's words ("Merged 2 firms into “ACME CO LTD”"). */
  label: string;
  added: string[];
  removed: DecisionView[];
}

/** The decisions in `after` that `before` did not have, and those of `before` that are gone. */
export function diffDecisions(
  before: readonly DecisionView[],
  after: readonly DecisionView[],
): { added: string[]; removed: DecisionView[] } {
  const was = new Set(before.map((d) => d.id));
  const is = new Set(after.map((d) => d.id));
  return {
    added: after.filter((d) => !was.has(d.id)).map((d) => d.id),
    removed: before.filter((d) => !is.has(d.id)),
  };
}

/**
 * Runs an action that decides (merge, split, a verdict) and says what it changed. The decisions are
 * read before and after it, so the change can be undone whatever the action overruled.
 */
export async function runDecision(
  label: string,
  action: () => Promise<BridgeResult<ResolutionStatus>>,
): Promise<
  { ok: true; change: DecisionChange; status: ResolutionStatus } | { ok: false; error: BridgeError }
> {
  const api = getApi();
  const before = await api.resolution.decisions();
  if (!before.ok) return before;
  const r = await action();
  if (!r.ok) return r;
  const after = await api.resolution.decisions();
  if (!after.ok) return after;
  return { ok: true, change: { label, ...diffDecisions(before.value, after.value) }, status: r.value };
}

/** Takes a change back: its decisions are removed and the ones it overruled come back as they were. */
export async function undoChange(
  change: DecisionChange,
): Promise<{ ok: true; status: ResolutionStatus | null } | { ok: false; error: BridgeError }> {
  const api = getApi();
  let status: ResolutionStatus | null = null;
  for (const id of change.added) {
    const r = await api.resolution.undo({ decisionId: id });
    // Already gone (undone in another view): nothing left to take back.
    if (!r.ok && r.error.kind !== 'NotFound') return r;
    if (r.ok) status = r.value;
  }
  if (change.removed.length > 0) {
    const file: AliasFile = {
      format: ALIAS_FILE_FORMAT,
      version: ALIAS_FILE_VERSION,
      decisions: change.removed.map((d) => ({
        verdict: d.verdict,
        a: d.a,
        b: d.b,
        decidedAt: d.decidedAt,
      })),
    };
    const r = await api.resolution.importAliases({ text: JSON.stringify(file) });
    if (!r.ok) return r;
    status = r.value.status;
  }
  return { ok: true, status };
}

import { KEPT_ANSWERS_LIMIT } from '@shared/library/library-contract';
import type { ShipmentSearchResponse } from '@shared/spec/responses';
import type { Provenance } from '../library';

/** A shipment search's answer that the library could not store, kept to be saved again under its id. */
export interface KeptAnswer {
  datasetId: string;
  request: Record<string, unknown>;
  response: ShipmentSearchResponse;
  provenance: Provenance;
  /** When the service answered (ISO): the dataset records it, however much later it is saved. */
  fetchedAt: string;
}

/**
 * The answers whose save failed, newest last. Paid for and not stored anywhere else, so they stay in
 * memory until they are saved again, the app quits, or newer failed answers push them out: at most
 * `limit` are kept (each up to 10,000 records), which is what bounds the memory they take.
 */
export interface KeptAnswers {
  keep(answer: KeptAnswer): void;
  get(datasetId: string): KeptAnswer | undefined;
  drop(datasetId: string): void;
  /** The kept answers' dataset ids, oldest first. */
  ids(): string[];
}

export function createKeptAnswers(limit = KEPT_ANSWERS_LIMIT): KeptAnswers {
  const kept = new Map<string, KeptAnswer>();
  return {
    keep(answer) {
      kept.delete(answer.datasetId);
      kept.set(answer.datasetId, answer);
      // A Map iterates in insertion order: the first key is the oldest answer.
      for (const id of kept.keys()) {
        if (kept.size <= limit) break;
        kept.delete(id);
      }
    },
    get: (datasetId) => kept.get(datasetId),
    drop: (datasetId) => void kept.delete(datasetId),
    ids: () => [...kept.keys()],
  };
}

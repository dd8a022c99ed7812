import { z } from 'zod';
import {
  firmCountRequestSchema,
  firmSearchRequestSchema,
  shipmentCountRequestSchema,
  shipmentSearchRequestSchema,
} from '../spec/operations';
import type { FirmCountResponse, FirmSearchResponse, ShipmentCountResponse } from '../spec/responses';
import type { UsageSummary } from '../spec/usage';
import { SHIPMENT_FIELDS, type ShipmentField, type ShipmentRecord } from '../spec/records';
import type { DatasetRow, SaveFailed } from '../library/library-contract';
import { defineCall } from '../define-call';

/** The service's own operations, signed in main with the chosen profile's credentials. */

/** A search result as returned over the bridge: main has already saved it to the library. */
export interface SavedToLibrary {
  /** The library dataset holding this result; null when it could not be saved (the result still counts). */
  datasetId?: string | null;
}

/** How many of an answer's rows come with it, in stored order: the Search grid's first block. */
export const SEARCH_HEAD_ROWS = 200;

/**
 * A shipment search's answer as the window gets it. The records stay in main: they are stored in the
 * library once, under `datasetId`, and the Search grid reads them in blocks from there. The first
 * block comes with the answer, so the first rows show while the rest is still being stored (a read of
 * the dataset waits for its save).
 */
export interface ShipmentSearchAnswer extends SavedToLibrary {
  /** Matching records the service counted. */
  total: number;
  /** Records it returned (at most the size asked). */
  returned: number;
  /** The first rows (`_row` 0, 1, …) as the dataset stores them; empty when `datasetId` is null. */
  head: DatasetRow[];
  /**
   * The fields the head's rows hold, when the search asked for some only (`headColumns`): the grid's
   * shown columns, so that the first block crosses as a fraction of the answer. Absent: every field.
   */
  headColumns?: ShipmentField[];
  /**
   * Every record, only when the library could not be opened to store them: what was paid for is still
   * shown (in memory, for this page alone).
   */
  unsaved?: ShipmentRecord[];
  /**
   * With `unsaved`: main keeps the answer under this id, so it can be saved again once the library
   * opens (`library.saveAgain`) and exported meanwhile (an export of `saveFailed.datasetId`).
   */
  saveFailed?: SaveFailed;
}

/**
 * A profile's usage figures and how old they are. Main reads the service at most once a minute; in
 * between it answers with that read plus what the app spent since, counted from the service's answers.
 */
export interface UsageReading {
  usage: UsageSummary;
  /** When the service itself was last read for these figures (epoch ms). */
  readAt: number;
  /** From when a read reaches the service again (epoch ms); until then main answers from its figures. */
  nextReadAt: number;
}

/** Which profile a call uses; defaults to the active one. */
const profileRef = { profileId: z.string().min(1).max(200).optional() };

export const queryCalls = {
  'usage.get': defineCall<UsageReading>()(z.strictObject({ ...profileRef })),
  'shipments.search': defineCall<ShipmentSearchAnswer>()(
    z.strictObject({
      ...profileRef,
      request: shipmentSearchRequestSchema,
      /**
       * Names this search's `shipments.head` event: given, main announces the answer's first rows as
       * soon as it has read them from the answer's first bytes, before the rest is in and checked.
       */
      headId: z.string().min(1).max(100).optional(),
      /** The fields the answer's head rows carry (the Search grid's shown columns); absent: all. */
      headColumns: z
        .array(z.enum(SHIPMENT_FIELDS as [ShipmentField, ...ShipmentField[]]))
        .min(1)
        .max(SHIPMENT_FIELDS.length)
        .optional(),
    }),
  ),
  'shipments.count': defineCall<ShipmentCountResponse>()(
    z.strictObject({ ...profileRef, request: shipmentCountRequestSchema }),
  ),
  'firms.search': defineCall<FirmSearchResponse & SavedToLibrary>()(
    z.strictObject({ ...profileRef, request: firmSearchRequestSchema }),
  ),
  'firms.count': defineCall<FirmCountResponse>()(
    z.strictObject({ ...profileRef, request: firmCountRequestSchema }),
  ),
};

/**
 * Main announces that a profile's usage changed: after every call that may spend its quota (searches,
 * counts, a fetch job's probe, a finished fetch job) and whenever it has read the figures anew. The
 * renderer re-reads usage on this signal alone, never by guessing which of its own calls spent something.
 * `profileId` is the profile whose account was charged (the active one when the call named none).
 */
export type UsageChanged =
  /** Main holds no figures it can vouch for: the window asks (usage.get). */
  | { profileId: string; usage?: undefined }
  /**
   * The figures main holds, read from the service (usage.get, a connection test) or kept from its
   * answers since, with the time of that read.
   */
  | ({ profileId: string } & UsageReading);

/**
 * A shipment search's first rows, read from the start of its answer while the rest still arrives, or is
 * still to be parsed and checked (`headId` as the search named it). Provisional: the search's own
 * answer, or its error, follows and replaces it. `returned` is what the answer will hold if it is whole:
 * every record of a list that ended within the head, else all of `total` the size asked allows.
 */
export interface ShipmentSearchHead extends Omit<ShipmentSearchAnswer, 'unsaved' | 'saveFailed'> {
  headId: string;
  datasetId: string;
}

export interface QueryEvents {
  'usage.changed': UsageChanged;
  'shipments.head': ShipmentSearchHead;
}

import { z } from 'zod';
import {
  firmCountRequestSchema,
  firmSearchRequestSchema,
  shipmentCountRequestSchema,
  shipmentSearchRequestSchema,
} from '../spec/operations';
import type {
  FirmCountResponse,
  FirmSearchResponse,
  ShipmentCountResponse,
  ShipmentSearchResponse,
} from '../spec/responses';
import type { UsageSummary } from '../spec/usage';
import { defineCall } from '../define-call';

/** The service's own operations, signed in main with the chosen profile's credentials. */

/** A search result as returned over the bridge: main has already saved it to the library. */
export interface SavedToLibrary {
  /** The library dataset holding this result; null when it could not be saved (the result still counts). */
  datasetId?: string | null;
}

/** Which profile a call uses; defaults to the active one. */
const profileRef = { profileId: z.string().min(1).max(200).optional() };

export const queryCalls = {
  'usage.get': defineCall<UsageSummary>()(z.strictObject({ ...profileRef })),
  'shipments.search': defineCall<ShipmentSearchResponse & SavedToLibrary>()(
    z.strictObject({ ...profileRef, request: shipmentSearchRequestSchema }),
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
 */
export interface UsageChanged {
  /** The profile whose account was charged (the active one when the call named none). */
  profileId: string;
  /**
   * The figures, when main holds them: read from the service (usage.get, a connection test) or kept
   * from its answers since; absent when main has none it can vouch for (the window then asks).
   */
  usage?: UsageSummary;
}

export interface QueryEvents {
  'usage.changed': UsageChanged;
}

import type { CallChannel } from '@shared/ipc/channels';
import { calls } from '@shared/ipc/contract';
import type { BridgeResult } from '@shared/ipc/errors';
import type { JobEstimateView } from '@shared/jobs/jobs-contract';

/**
 * Pieces of a fake main process for page tests. A call whose input does not fit the channel's real
 * schema is refused, as main's dispatcher refuses it, so a page that sends a bad call fails its test.
 */
export function refuseBadInput(channel: CallChannel, input: unknown): BridgeResult<unknown> | null {
  const parsed = calls[channel].input.safeParse(input);
  return parsed.success
    ? null
    : {
        ok: false,
        error: { kind: 'InvalidInput', message: `bad input for ${channel}: ${parsed.error.message}` },
      };
}

/** What the app's stores read in the background, for a workspace with nothing saved yet. */
export function nothingSaved(channel: CallChannel): BridgeResult<unknown> {
  switch (channel) {
    case 'library.findEquivalent':
    case 'presets.getLast':
      return { ok: true, value: null };
    case 'library.list':
      return { ok: true, value: [] };
    case 'library.status':
      return { ok: true, value: { recovered: null } };
    case 'presets.list':
      return { ok: true, value: { presets: [], setAside: null } };
    case 'jobs.list':
      return { ok: true, value: { running: [], resumable: [] } };
    default:
      return { ok: true, value: undefined };
  }
}

/** The cost check's answer for a Fetch all of 600 records in one request, with what the test changes. */
export function jobEstimate(overrides: Partial<JobEstimateView> = {}): JobEstimateView {
  return {
    kind: 'shipments',
    total: 600,
    unit: 'records',
    optimumRequests: 1,
    estimatedRequests: 1,
    estimatedDownloads: 610,
    remainingDownloads: null,
    remainingDailyRequests: null,
    enough: true,
    problems: [],
    account: 'main',
    probed: false,
    ...overrides,
  };
}

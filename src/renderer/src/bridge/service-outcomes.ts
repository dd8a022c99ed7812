import type { PortolanApi } from '@shared/ipc/build-api';
import type { BridgeError, BridgeResult } from '@shared/ipc/errors';

/**
 * The calls that reach the remote service, so their outcome says whether the connection works: every
 * call of a namespace, or the named ones. A watched query's cost check and refresh search the service;
 * its list, details, renames and changes read the library only, and say nothing of the connection.
 * Fetch all's cost check probes the service and reads usage; a job's own requests are told by main
 * (service.connection), as they run after the call that started them has returned.
 */
const SERVICE_CALLS = {
  usage: 'all',
  shipments: 'all',
  firms: 'all',
  watch: ['preview', 'refresh'],
  jobs: ['estimate'],
} as const satisfies Partial<Record<keyof PortolanApi, 'all' | readonly string[]>>;

/** Kinds that describe the connection; the rest (bad input, cancelled, …) say nothing about it. */
const CONNECTION_KINDS: ReadonlySet<string> = new Set([
  'AuthRejected',
  'LimitExceeded',
  'ServiceError',
  'NetworkError',
  'BadResponse',
  'NoCredentials',
  'KeychainUnavailable',
]);

export interface ServiceOutcome {
  /** The profile named in the call; undefined means the active one. */
  profileId: string | undefined;
  ok: boolean;
  error?: BridgeError;
}

type Listener = (o: ServiceOutcome) => void;
const listeners = new Set<Listener>();

/** Follows every service call made through `api`, whichever page made it. */
export function onServiceOutcome(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function report(o: ServiceOutcome): void {
  for (const l of [...listeners]) l(o);
}

/**
 * Whose service a call reaches when its input names no profile: a watched query runs with its own
 * profile, whichever is active. `channel` is the call's ("watch.preview"); undefined means the active one.
 */
export type CallProfile = (channel: string, input: unknown) => string | undefined;

/** Wraps the service calls of an api so their outcomes are reported; everything else is untouched. */
export function withServiceOutcomes(api: PortolanApi, profileOf?: CallProfile): PortolanApi {
  const wrapped: Record<string, unknown> = { ...api };
  for (const [ns, calls] of Object.entries(SERVICE_CALLS)) {
    const group = api[ns as keyof PortolanApi] as
      Record<string, (input?: unknown) => Promise<BridgeResult<unknown>>> | undefined;
    if (!group) continue;
    const out: Record<string, unknown> = { ...group };
    for (const [name, fn] of Object.entries(group)) {
      if (calls !== 'all' && !(calls as readonly string[]).includes(name)) continue;
      out[name] = async (input?: unknown) => {
        // Asked before the call: what it changes (a refresh's preview, gone once it succeeds) is then known.
        const profileId =
          typeof input === 'object' && input !== null && 'profileId' in input
            ? (input as { profileId?: string }).profileId
            : profileOf?.(`${ns}.${name}`, input);
        const r = await fn(input);
        if (r.ok) report({ profileId, ok: true });
        else if (CONNECTION_KINDS.has(r.error.kind)) report({ profileId, ok: false, error: r.error });
        return r;
      };
    }
    wrapped[ns] = out;
  }
  return wrapped as PortolanApi;
}

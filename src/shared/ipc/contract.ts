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
import { shipmentFilterSchema, type ShipmentFilter } from '../spec/filter'; // presets
import { cleanPresetName, PRESET_NAME_MAX } from './preset-name'; // presets
import type { CallChannel, EventChannel } from './channels';
import { profileFields } from '../profiles/profile-rules'; // profiles
import { analysisCalls } from '../analysis/analysis-contract'; // analysis
import { jobsCalls, libraryCalls } from '../library/library-contract'; // library and jobs
import { exportCalls } from '../export/export-contract'; // export

/** What the renderer may know of a connection profile: never the secret, the key only masked. */
export interface ProfileView {
  id: string;
  name: string;
  baseUrl: string;
  accountName: string;
  /** e.g. `••••3f9a`, or null when no key is stored. */
  apiKeyMasked: string | null;
  hasSecret: boolean;
  /** The built-in demo workspace backed by the embedded simulator. */
  demo: boolean;
}

export interface ProfilesState {
  profiles: ProfileView[];
  activeId: string | null;
  /** Null when the keychain works; otherwise what is wrong and what to do. */
  keychainProblem: string | null;
}

export interface AppInfo {
  version: string;
  host: 'electron' | 'browser';
  platform: string;
}

export interface JobProgress {
  jobId: string;
  label: string;
  done: number;
  total: number | null;
  unit: string;
  etaSeconds: number | null;
  // library and jobs: the slicing detail a progress bar shows
  kind?: 'shipments' | 'firms';
  windowsDone?: number;
  windowsKnown?: number;
  recordsStored?: number;
  requestsUsed?: number;
  downloadsUsed?: number;
  /** Set while the job waits for a rate limit. */
  waitingSeconds?: number;
  /** Set while the job waits: when it goes on (epoch ms), for a countdown between events. */
  waitingUntil?: number;
}

export interface JobFinished {
  jobId: string;
  /** `paused`: stopped with what it fetched kept, resumable (by the user, or at a used-up limit). */
  outcome: 'succeeded' | 'failed' | 'cancelled' | 'paused';
  message: string;
  /** The finished dataset (succeeded only). */
  datasetId?: string | null;
}

/** A search result as returned over the bridge: main has already saved it to the library. */
export interface SavedToLibrary {
  /** The library dataset holding this result; null when it could not be saved (the result still counts). */
  datasetId?: string | null;
}

/** Menu commands the shell forwards to the renderer (navigation, focus search, …). */
export interface AppCommand {
  command: 'navigate' | 'run-search' | 'focus-filter';
  target?: string;
}

const id = z.string().min(1).max(200);

// presets
/** A named shipment filter the user saved; the filter always passes the spec's filter schema. */
export interface Preset {
  id: string;
  name: string;
  filter: ShipmentFilter;
  createdAt: string;
  updatedAt: string;
}
export interface PresetsImportResult {
  presets: Preset[];
  imported: number;
  /** Presets of the file that were left out, and why (e.g. a filter the spec rejects). */
  skipped: { name: string; reason: string }[];
}
/** Presets of presets.json that could not be read on start: the file was kept so nothing is lost. */
export interface PresetsSetAside {
  /** How many presets were left out; null when the file as a whole could not be read. */
  count: number | null;
  /** Full path of the copy kept in the data folder. */
  file: string;
}
export interface PresetsList {
  presets: Preset[];
  /** Set once, on the first list after a start that had to set presets aside, so the panel says so once. */
  setAside: PresetsSetAside | null;
}
const presetName = z
  .string()
  .overwrite(cleanPresetName)
  .min(1, { error: 'a name is required' })
  .max(PRESET_NAME_MAX, { error: `at most ${PRESET_NAME_MAX} characters` });
// end presets
const { name: profileName, baseUrl, apiKey, apiSecret } = profileFields; // profiles
/** Which profile a service call uses; defaults to the active one. */
const profileRef = { profileId: id.optional() };

/** Declares a call: its input schema now, its output type as a type argument. */
function call<O>() {
  return <I extends z.ZodType>(input: I) => ({ input, output: undefined as unknown as O });
}

export const calls = {
  'app.info': call<AppInfo>()(z.undefined()),
  'profiles.list': call<ProfilesState>()(z.undefined()),
  'profiles.create': call<ProfileView>()(
    z.strictObject({
      name: profileName,
      baseUrl,
      accountName: z.string().trim().max(200).default(''),
      apiKey: apiKey.optional(),
      apiSecret: apiSecret.optional(),
    }),
  ),
  'profiles.update': call<ProfileView>()(
    z.strictObject({
      id,
      name: profileName.optional(),
      baseUrl: baseUrl.optional(),
      accountName: z.string().trim().max(200).optional(),
    }),
  ),
  'profiles.delete': call<ProfilesState>()(z.strictObject({ id })),
  'profiles.setActive': call<ProfilesState>()(z.strictObject({ id })),
  'profiles.setCredentials': call<ProfileView>()(z.strictObject({ id, apiKey, apiSecret })),
  'profiles.testConnection': call<UsageSummary>()(z.strictObject({ id })),
  'demo.start': call<ProfilesState>()(z.undefined()),
  'usage.get': call<UsageSummary>()(z.strictObject({ ...profileRef })),
  'shipments.search': call<ShipmentSearchResponse & SavedToLibrary>()(
    z.strictObject({ ...profileRef, request: shipmentSearchRequestSchema }),
  ),
  'shipments.count': call<ShipmentCountResponse>()(
    z.strictObject({ ...profileRef, request: shipmentCountRequestSchema }),
  ),
  'firms.search': call<FirmSearchResponse & SavedToLibrary>()(
    z.strictObject({ ...profileRef, request: firmSearchRequestSchema }),
  ),
  'firms.count': call<FirmCountResponse>()(
    z.strictObject({ ...profileRef, request: firmCountRequestSchema }),
  ),
  // presets
  'presets.list': call<PresetsList>()(z.undefined()),
  'presets.save': call<Preset[]>()(
    z.strictObject({ id: id.optional(), name: presetName, filter: shipmentFilterSchema }),
  ),
  'presets.rename': call<Preset[]>()(z.strictObject({ id, name: presetName })),
  'presets.duplicate': call<Preset[]>()(z.strictObject({ id })),
  'presets.delete': call<Preset[]>()(z.strictObject({ id })),
  'presets.reorder': call<Preset[]>()(z.strictObject({ id, direction: z.enum(['up', 'down']) })),
  'presets.import': call<PresetsImportResult>()(z.strictObject({ text: z.string().max(10_000_000) })),
  'presets.export': call<string>()(z.strictObject({ ids: z.array(id).optional() }).optional()),
  'presets.getLast': call<ShipmentFilter | null>()(z.undefined()),
  'presets.setLast': call<void>()(z.strictObject({ filter: shipmentFilterSchema })),
  // end presets
  'shell.openExternal': call<void>()(z.strictObject({ url: z.url({ protocol: /^https$/ }) })),
  // analysis
  ...analysisCalls,
  // end analysis
  // library
  ...libraryCalls,
  // jobs
  ...jobsCalls,
  // end library and jobs
  // export
  ...exportCalls,
  // end export
} satisfies Record<CallChannel, { input: z.ZodType; output: unknown }>;

export interface Events {
  'jobs.progress': JobProgress;
  'jobs.finished': JobFinished;
  'app.command': AppCommand;
}

// Compile-time proof that every listed event has a payload type and vice versa.
type Exact<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
export const eventsAreComplete: Exact<keyof Events, EventChannel> = true;
export const callsAreComplete: Exact<keyof typeof calls, CallChannel> = true;

export type Calls = typeof calls;
export type CallInput<C extends CallChannel> = z.input<Calls[C]['input']>;
export type ParsedInput<C extends CallChannel> = z.output<Calls[C]['input']>;
export type CallOutput<C extends CallChannel> = Calls[C]['output'];

import type { z } from 'zod';
import { analysisCalls } from '../analysis/analysis-contract';
import { appCalls, type AppEvents } from '../app/app-contract';
import { exportCalls } from '../export/export-contract';
import { jobsCalls, type JobsEvents } from '../jobs/jobs-contract';
import { libraryCalls, type LibraryEvents } from '../library/library-contract';
import { presetsCalls } from '../presets/presets-contract';
import { profilesCalls, type ProfilesEvents } from '../profiles/profiles-contract';
import { queryCalls, type QueryEvents } from '../query/query-contract';
import { resolutionCalls, type ResolutionEvents } from '../resolution/resolution-contract';
import { watchCalls, type WatchEvents } from '../watch/watch-contract';
import type { CallChannel, EventChannel } from './channels';

/**
 * The one map of the bridge: every call's input schema and output type, gathered from one contract file
 * per capability (`src/shared/<capability>/<capability>-contract.ts`), and every event's payload. Both
 * hosts dispatch by it and the renderer's `PortolanApi` is typed by it.
 */
export const calls = {
  ...appCalls,
  ...profilesCalls,
  ...queryCalls,
  ...presetsCalls,
  ...analysisCalls,
  ...libraryCalls,
  ...resolutionCalls,
  ...jobsCalls,
  ...watchCalls,
  ...exportCalls,
} satisfies Record<CallChannel, { input: z.ZodType; output: unknown }>;

export interface Events
  extends AppEvents, JobsEvents, QueryEvents, LibraryEvents, ResolutionEvents, ProfilesEvents, WatchEvents {}

// Compile-time proof that every listed event has a payload type and vice versa.
type Exact<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
export const eventsAreComplete: Exact<keyof Events, EventChannel> = true;
export const callsAreComplete: Exact<keyof typeof calls, CallChannel> = true;

export type Calls = typeof calls;
export type CallInput<C extends CallChannel> = z.input<Calls[C]['input']>;
export type ParsedInput<C extends CallChannel> = z.output<Calls[C]['input']>;
export type CallOutput<C extends CallChannel> = Calls[C]['output'];

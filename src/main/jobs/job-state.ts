import type { ShipmentFilter } from '@shared/spec/filter';
import type { CoveredWindow, JobRecord, JobStatus } from '../library';
import type { FrontierItem } from './planner';
import type { JobKind, JobSummary } from './types';

/*
 * What a job saves with every step (the `state_json` and `input_json` of its row): the shapes resume
 * reads back after a restart, so they change only in ways older saved jobs still satisfy.
 */

export interface JobInput {
  /** The filter; `size`/`page` are ignored (the job decides them). */
  filter: ShipmentFilter;
  profileId?: string | null;
  profileName?: string | null;
  account?: string | null;
  /** Dataset name; defaults to one made from the filter. */
  name?: string;
  /**
   * Records (shipments) or pages (firms) the search of this filter reported when the fetch was planned:
   * shown as the job's size until its own first answer says it.
   */
  plannedTotal?: number;
}

export interface ShipmentState {
  kind: 'shipments';
  rootTotal: number | null;
  /** The planned size (`JobInput.plannedTotal`), shown while `rootTotal` is not known yet. */
  plannedTotal?: number;
  frontier: FrontierItem[];
  covered: CoveredWindow[];
  requests: number;
  downloads: number;
  stored: number;
  duplicates: number;
  /** Records of windows done (for progress), which counts duplicates across overlapping facets too. */
  coveredRecords: number;
  elapsedMs: number;
  gaps: string[];
}

export interface FirmState {
  kind: 'firms';
  totalPages: number | null;
  /** The planned page count (`JobInput.plannedTotal`), shown while `totalPages` is not known yet. */
  plannedTotal?: number;
  totalShipment: number | null;
  nextPage: number;
  requests: number;
  downloads: number;
  stored: number;
  elapsedMs: number;
}

export type JobState = ShipmentState | FirmState;

/** The job's size as far as it is known: its own answers' total, else the planned one. */
export function knownTotal(state: JobState): number | null {
  return (state.kind === 'shipments' ? state.rootTotal : state.totalPages) ?? state.plannedTotal ?? null;
}

/** A job as the runner works on it: its saved row with input and state read back. */
export interface JobRow {
  id: string;
  kind: JobKind;
  label: string;
  status: JobStatus;
  datasetId: string;
  input: JobInput;
  state: JobState;
}

export function toJobRow(r: JobRecord): JobRow {
  return {
    id: r.id,
    kind: r.kind,
    label: r.label,
    status: r.status,
    datasetId: r.datasetId,
    input: r.input as JobInput,
    state: r.state as JobState,
  };
}

/** A saved job as the jobs list shows it; 'running' in the file means the app stopped under it. */
export function summaryOf(r: JobRecord): JobSummary {
  const state = r.state as JobState;
  const input = r.input as JobInput;
  return {
    id: r.id,
    kind: r.kind,
    label: r.label,
    status: r.status === 'running' ? 'interrupted' : r.status,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    error: r.error,
    profileId: input.profileId ?? null,
    done: state.kind === 'shipments' ? state.coveredRecords : state.nextPage - 1,
    total: knownTotal(state),
    stored: state.stored,
  };
}

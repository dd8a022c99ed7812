import { Rng } from './prng';
import type { SimFaults } from './types';

export type FaultAction =
  | { kind: 'none' }
  | { kind: 'drop' }
  | { kind: 'error'; status: number }
  | { kind: 'burst429'; retryAfter: number };

export interface FaultDecision {
  latencyMs: number;
  action: FaultAction;
  /** How a 200 body is spoiled, if at all. */
  body: 'intact' | 'invalid' | 'truncated';
}

const rate = (name: string, v: number | undefined): void => {
  if (v !== undefined && !(Number.isFinite(v) && v >= 0 && v <= 1))
    throw new Error(`faults.${name} must be between 0 and 1`);
};

/** Throws a readable error for fault settings that cannot be honoured. */
export function validateFaults(f: SimFaults): void {
  rate('errorRate', f.errorRate);
  rate('invalidJsonRate', f.invalidJsonRate);
  rate('truncateRate', f.truncateRate);
  rate('dropRate', f.dropRate);
  if (f.latencyMs !== undefined && !(Number.isFinite(f.latencyMs) && f.latencyMs >= 0)) {
    throw new Error('faults.latencyMs must be a non-negative number');
  }
  if (f.errorStatuses !== undefined) {
    if (
      f.errorStatuses.length === 0 ||
      f.errorStatuses.some((s) => !Number.isInteger(s) || s < 500 || s > 599)
    ) {
      throw new Error('faults.errorStatuses must list 5xx statuses');
    }
  }
  if (f.burst429 !== undefined) {
    const { every, count, retryAfter = 1 } = f.burst429;
    if (!Number.isInteger(every) || !Number.isInteger(count) || every < 1 || count < 0 || count > every) {
      throw new Error('faults.burst429 needs whole numbers with 1 <= every and 0 <= count <= every');
    }
    if (!Number.isInteger(retryAfter) || retryAfter < 0) {
      throw new Error('faults.burst429.retryAfter needs a whole number of seconds, 0 or more');
    }
  }
}

/**
 * Draws the faults of each request in arrival order. Every request consumes the same number of draws
 * whatever the outcome, so one seed always yields the same sequence of faults.
 */
export class FaultInjector {
  private faults: SimFaults | undefined;
  private rng = new Rng(1);
  private counter = 0;

  constructor(f: SimFaults | undefined) {
    this.set(f);
  }

  set(f: SimFaults | undefined): void {
    if (f) validateFaults(f);
    this.faults = f ? structuredClone(f) : undefined;
    this.rng = new Rng(f?.seed ?? 1);
    this.counter = 0;
  }

  next(): FaultDecision {
    const f = this.faults;
    if (!f) return { latencyMs: 0, action: { kind: 'none' }, body: 'intact' };
    const n = this.counter++;
    const [dDrop, dError, dStatus, dBody] = [
      this.rng.next(),
      this.rng.next(),
      this.rng.next(),
      this.rng.next(),
    ];
    let action: FaultAction = { kind: 'none' };
    if (dDrop < (f.dropRate ?? 0)) action = { kind: 'drop' };
    else if (dError < (f.errorRate ?? 0)) {
      const statuses = f.errorStatuses ?? [500, 503];
      action = { kind: 'error', status: statuses[Math.floor(dStatus * statuses.length)] ?? 500 };
    } else if (
      f.burst429 &&
      f.burst429.count > 0 &&
      n % f.burst429.every >= f.burst429.every - f.burst429.count
    ) {
      action = { kind: 'burst429', retryAfter: f.burst429.retryAfter ?? 1 };
    }
    const inv = f.invalidJsonRate ?? 0;
    const body = dBody < inv ? 'invalid' : dBody < inv + (f.truncateRate ?? 0) ? 'truncated' : 'intact';
    return { latencyMs: f.latencyMs ?? 0, action, body };
  }
}

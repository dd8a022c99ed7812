import type { UsageMetric } from '@shared/spec';
import type { SimDataset } from './dataset';

export interface SimAccount {
  name: string;
  apiKey: string;
  apiSecret: string;
  /** Per-metric limits; -1 or absent = unlimited. */
  limits?: Partial<Record<UsageMetric, number>>;
}

export interface SimFaults {
  /** Added before every response (including errors). */
  latencyMs?: number;
  /** Share of requests (0..1) answered with a server error instead of being processed. */
  errorRate?: number;
  /** Statuses for `errorRate`, drawn uniformly; default [500, 503]. */
  errorStatuses?: number[];
  /**
   * Of every `every` requests, the last `count` are answered 429 with `Retry-After: retryAfter` (seconds,
   * default 1: a client waits it out; one longer than its backoff cap reaches the user).
   */
  burst429?: { every: number; count: number; retryAfter?: number };
  /** Share of 200 answers whose body is not valid JSON. */
  invalidJsonRate?: number;
  /** Share of 200 answers whose body is cut in half (Content-Length matches the cut body). */
  truncateRate?: number;
  /** Share of requests whose connection is destroyed without any response. */
  dropRate?: number;
  /** Seed of the fault draws; default 1. The sequence restarts on every setFaults. */
  seed?: number;
}

export interface SimOptions {
  /** 0 = a free port. */
  port?: number;
  host?: '127.0.0.1';
  /** Number of shipment records; default 50,000. */
  records?: number;
  /** Data seed; default 1. */
  seed?: number;
  accounts: SimAccount[];
  faults?: SimFaults;
  /** Defaults to resources/data/hs-codes.csv resolved from process.cwd(). */
  hsCodesCsvPath?: string;
  /** Clock for the request windows (ms since epoch); default Date.now. */
  now?: () => number;
  /**
   * The service's data as published on this day (yyyy-MM-dd): records appear 1 to 20 days after they
   * arrive (on the day of their `createdAt`), so moving it on (`advance`) adds records over time, late
   * ones among them. Absent: every record is there from the start and nothing is added.
   */
  asOf?: string;
  /** Moves `asOf` on by `days` every `everySeconds` of wall time (needs `asOf`). */
  grow?: { days: number; everySeconds: number };
}

export interface RunningSimulator {
  /** `http://127.0.0.1:PORT/` */
  url: string;
  port: number;
  accounts: SimAccount[];
  close(): Promise<void>;
  setFaults(f: SimFaults | undefined): void;
  /** For tests: lets them compute expected answers independently. */
  dataset: SimDataset;
  /** The day the data is published up to (yyyy-MM-dd), or null when the simulator does not grow. */
  asOf(): string | null;
  /** Publishes the records of the next `days` days (adds records); returns the new `asOf`. */
  advance(days: number): string;
  /** Sets the day the data is published up to (earlier or later). */
  setAsOf(date: string): void;
}

import { readdirSync, readFileSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/**
 * How far below the main thread the library's DuckDB worker threads run (nice values): background work
 * that gives way to the main thread (the bridge's calls, the parse of an answer) and to the window's
 * processes when they want a core, and has every core the moment they are idle. On 2 cores, while
 * DuckDB stores a 10,000-record answer beside main's parse and check of it, that parse and check took
 * 289 ms at the same priority and 168 ms 10 below (medians of 15 alternating rounds of the workbench
 * benchmark; README, notes).
 */
const BACKGROUND_NICE_STEP = 10;
/** The lowest priority there is (the highest nice value). */
const LOWEST_NICE = 19;

/** The nice value background threads get: `BACKGROUND_NICE_STEP` below the main thread's. */
export function backgroundNice(): number {
  return Math.min(LOWEST_NICE, getPriority(process.pid) + BACKGROUND_NICE_STEP);
}

/**
 * This process's threads, or null where they cannot be told apart: a thread's own priority is Linux's
 * (`setpriority` on a thread id); elsewhere the same call would take a process id for it.
 */
export function processThreads(): ReadonlySet<number> | null {
  if (process.platform !== 'linux') return null;
  try {
    return new Set(readdirSync('/proc/self/task').map(Number));
  } catch {
    return null;
  }
}

/** A thread's name (`comm`), or null when it has ended. */
function threadName(tid: number): string | null {
  try {
    return readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim();
  } catch {
    return null;
  }
}

/**
 * Whether a thread is unnamed: it carries the name of the thread that started it, the process's own or
 * a libuv worker's (DuckDB starts its workers from the libuv worker that creates the instance). Electron's
 * own threads are named (ThreadPoolForeg…, Chrome_…) and are never taken for DuckDB's.
 */
function unnamed(tid: number, processName: string | null): boolean {
  const name = threadName(tid);
  return name !== null && (name === processName || name.startsWith('libuv'));
}

/**
 * Lowers the priority of the unnamed threads started since `before` to `backgroundNice()`, and gives
 * their ids. They are lowered only when they are exactly `expected` in number: when another part of the
 * process started one meanwhile, none is lowered rather than the wrong one. (libuv's pool, which starts
 * its threads on its first job, is up before: loading @duckdb/node-api starts it, 7 → 11 threads in a
 * bare Node process.)
 */
export function lowerNewThreads(before: ReadonlySet<number> | null, expected: number): number[] {
  const now = before && expected > 0 ? processThreads() : null;
  if (!before || !now) return [];
  const nice = backgroundNice();
  const processName = threadName(process.pid);
  const started = [...now].filter(
    (tid) => !before.has(tid) && tid !== process.pid && unnamed(tid, processName),
  );
  if (started.length !== expected) return [];
  const lowered: number[] = [];
  for (const tid of started) {
    try {
      setPriority(tid, nice);
      lowered.push(tid);
    } catch {
      // Gone already, or not ours to change: the thread keeps the priority it has.
    }
  }
  return lowered;
}

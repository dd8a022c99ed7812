import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { backgroundNice, lowerNewThreads, processThreads } from '../../src/main/library/thread-priority';
import { Library } from '../../src/main/library';
import { useTempDir } from '../helpers/temp-dir';

/**
 * The library's DuckDB workers run below the main thread, so a search's answer reaches the window
 * while DuckDB stores it. Read from the kernel's own account of each thread (Linux only, where a
 * thread has a priority of its own).
 */
const temp = useTempDir('portolan-threads-test-');

/** Each thread of this process and its nice value (field 19 of /proc/self/task/<tid>/stat). */
function niceOfThreads(): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      // Fields after the name in parentheses start at field 3 (the state); the nice value is field 19.
      out.set(Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
    } catch {
      // The thread ended while the list was read.
    }
  }
  return out;
}

/**
 * Starts a worker thread that stays until `test` has run, and hands it the threads the process had
 * before and those started since (the worker's).
 */
async function withStartedThreads(
  test: (before: ReadonlySet<number> | null, started: number[]) => void,
): Promise<void> {
  const before = processThreads();
  const code = 'setInterval(() => {}, 1000); require("node:worker_threads").parentPort.postMessage(1);';
  const worker = new Worker(code, { eval: true });
  try {
    await new Promise((resolve) => worker.once('message', resolve));
    const started = [...(processThreads() ?? [])].filter((t) => !before?.has(t));
    expect(started.length).toBeGreaterThan(0);
    test(before, started);
  } finally {
    await worker.terminate();
  }
}

describe.runIf(process.platform === 'linux')('thread priority of the library', () => {
  it("runs DuckDB's worker threads at the background priority, and the threads before at theirs", async () => {
    const before = niceOfThreads();
    const lib = await Library.open(temp.dir);
    try {
      const rows = await lib.reader.all(`SELECT current_setting('threads')::INTEGER AS n`);
      const after = niceOfThreads();
      const started = [...after].filter(([tid]) => !before.has(tid));
      // DuckDB's workers are all but one of its threads; a thread they start (its allocator's) has
      // their priority too.
      const lowered = started.filter(([, nice]) => nice === backgroundNice());
      expect(lowered.length).toBeGreaterThanOrEqual(Number(rows[0]?.n) - 1);
      expect(backgroundNice()).toBeGreaterThan(before.get(process.pid) ?? 0);
      for (const [tid, nice] of before) if (after.has(tid)) expect(after.get(tid)).toBe(nice);
    } finally {
      await lib.close();
    }
  });

  it('lowers the threads started since, when they are as many as expected', () =>
    withStartedThreads((before, started) => {
      const own = niceOfThreads().get(process.pid);
      expect(lowerNewThreads(before, started.length).sort()).toEqual([...started].sort());
      const nice = niceOfThreads();
      for (const tid of started) expect(nice.get(tid)).toBe(backgroundNice());
      expect(nice.get(process.pid)).toBe(own);
    }));

  it('lowers none when the threads started since are not as many as expected', () =>
    withStartedThreads((before, started) => {
      expect(lowerNewThreads(before, started.length + 1)).toEqual([]);
      const nice = niceOfThreads();
      // A thread starts at the priority of the thread that starts it.
      for (const tid of started) expect(nice.get(tid)).toBe(nice.get(process.pid));
    }));

  it("never takes a named thread (as Electron's own are) for one of DuckDB's", () =>
    withStartedThreads((before, started) => {
      // A thread may rename another of its process: as Chromium names its pool's threads.
      for (const tid of started) writeFileSync(`/proc/self/task/${tid}/comm`, 'ThreadPoolForeg');
      expect(lowerNewThreads(before, started.length)).toEqual([]);
      const nice = niceOfThreads();
      for (const tid of started) expect(nice.get(tid)).toBe(nice.get(process.pid));
    }));
});

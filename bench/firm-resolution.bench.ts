/**
 * Firm resolution against the simulator's truth (goals: pairwise precision ≥ 0.98, recall ≥ 0.90, and
 * 50,000 distinct party names resolved in ≤ 10 s), through the path the app runs: records saved into a
 * library, then `library.firms.resolve()`, as the Firms view and the analysis call it.
 *
 *   npm run bench -- firm-resolution                 ~51,000 party names (26,500 firms)
 *   npm run bench -- firm-resolution --firms=5000
 *
 * The records name every party of the simulator once as importer (and once more as exporter), with the
 * firm codes removed: a file from another tool, where names and contact details are all there is. A
 * second case is the demo workspace's dataset as the service sends it (50,000 records, codes kept).
 *
 * Baseline, measured in the same run on the same rows: grouping the parties by country and exact
 * lower-case name in one SQL statement, the least any resolution must do (read every party once).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Library, type ResolutionStep } from '../src/main/library';
import { SimData, partyFields } from '../src/main/sim/dataset';
import { loadHsSubheadings } from '../src/main/sim/hs-codes';

const GOAL_MS = 10_000;
const GOAL_NAMES = 50_000;
const GOAL_PRECISION = 0.98;
const GOAL_RECALL = 0.9;
const RUNS = 3;
const firmsArg = process.argv.find((a) => a.startsWith('--firms='));
const FIRMS = firmsArg ? Number(firmsArg.slice(8)) : 26_500;
const hsSubheadings = loadHsSubheadings(resolve(import.meta.dirname, '../resources/data/hs-codes.csv'));

interface Timing {
  ms: number;
  cpuMs: number;
  steps: ResolutionStep[];
}

async function timed(fn: (onStep: (s: ResolutionStep) => void) => Promise<unknown>): Promise<Timing> {
  global.gc?.();
  const steps: ResolutionStep[] = [];
  const cpu = process.cpuUsage();
  const t = performance.now();
  await fn((step) => steps.push(step));
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - t, cpuMs: (used.user + used.system) / 1000, steps };
}

async function median(fn: (onStep: (s: ResolutionStep) => void) => Promise<unknown>): Promise<Timing> {
  const runs: Timing[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await timed(fn));
  runs.sort((a, b) => a.ms - b.ms);
  return runs[Math.floor(runs.length / 2)]!;
}

/** Pairwise precision and recall of the library's firms against the simulator's truth. */
async function score(
  library: Library,
  sim: SimData,
): Promise<{ precision: number; recall: number; units: number }> {
  const truth = new Map(
    sim.firms.map((f) => [`${f.countryCode}\u001f${f.name.trim()}\u001f${f.urlCode}`, f.firmId]),
  );
  const byName = new Map(sim.firms.map((f) => [`${f.countryCode}\u001f${f.name.trim()}\u001f`, f.firmId]));
  const rows = await library.reader.all(`SELECT country_key, name, url_code, firm_id FROM firm_parties`);
  const byFirm = new Map<string, Map<number, number>>();
  const byTruth = new Map<number, number>();
  for (const r of rows) {
    const key = `${String(r.country_key)}\u001f${String(r.name)}\u001f${String(r.url_code)}`;
    const t = truth.get(key) ?? byName.get(key);
    if (t === undefined) throw new Error(`a party the simulator does not know: ${key}`);
    const firm = byFirm.get(String(r.firm_id)) ?? new Map<number, number>();
    firm.set(t, (firm.get(t) ?? 0) + 1);
    byFirm.set(String(r.firm_id), firm);
    byTruth.set(t, (byTruth.get(t) ?? 0) + 1);
  }
  const pairs = (n: number) => (n * (n - 1)) / 2;
  let predicted = 0;
  let correct = 0;
  for (const firm of byFirm.values()) {
    let size = 0;
    for (const n of firm.values()) {
      size += n;
      correct += pairs(n);
    }
    predicted += pairs(size);
  }
  const actual = [...byTruth.values()].reduce((s, n) => s + pairs(n), 0);
  return {
    precision: predicted === 0 ? 1 : correct / predicted,
    recall: actual === 0 ? 1 : correct / actual,
    units: rows.length,
  };
}

async function withLibrary<T>(fn: (library: Library) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'portolan-firms-bench-'));
  const library = await Library.open(dir);
  try {
    return await fn(library);
  } finally {
    await library.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const pct = (x: number): string => x.toFixed(4);
const s = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

async function everyParty(): Promise<boolean> {
  const t = performance.now();
  const sim = new SimData({ records: 10_000, seed: 42, hsSubheadings, firms: FIRMS });
  const P = sim.firms.length;
  const records = sim.firms.map((f, i) => {
    const r: Record<string, string> = {
      ...(sim.record(i % sim.size) as Record<string, string>),
      ...partyFields(f, 'importer'),
      ...partyFields(sim.firms[(i * 7919 + 13) % P]!, 'exporter'),
    };
    for (const p of ['importer', 'exporter'])
      for (const x of ['UrlCode', 'CleanUrl', 'TaCode']) r[`${p}${x}`] = '';
    return r;
  });
  return withLibrary(async (library) => {
    await library.saveRecords({ kind: 'shipments', request: {}, name: 'every party, no codes' }, records);
    await library.checkpoint();
    const names = await library.reader.one(
      `SELECT count(*) AS n FROM (SELECT DISTINCT "importerCountryCode", "importerName" FROM shipment_rows
                                  UNION SELECT "exporterCountryCode", "exporterName" FROM shipment_rows)`,
    );
    const distinct = Number(names?.n);
    console.log(
      `every party once, no firm codes: ${records.length.toLocaleString('en-US')} records, ${sim.firmCount.toLocaleString('en-US')} firms, ` +
        `${distinct.toLocaleString('en-US')} distinct party names (built in ${s(performance.now() - t)})`,
    );
    const baseline = await median(() =>
      library.reader.all(
        `SELECT count(*) FROM (
           SELECT cc, lower(name) FROM (SELECT "importerCountryCode" AS cc, "importerName" AS name FROM shipment_rows
                                        UNION ALL SELECT "exporterCountryCode", "exporterName" FROM shipment_rows)
            GROUP BY 1, 2)`,
      ),
    );
    const run = await median((onStep) => library.firms.resolve({ force: true, onStep }));
    const status = await library.firms.status();
    const q = await score(library, sim);
    const okTime = run.ms <= GOAL_MS && distinct >= GOAL_NAMES;
    const okP = q.precision >= GOAL_PRECISION;
    const okR = q.recall >= GOAL_RECALL;
    console.log(
      `  baseline: exact grouping by country and lower-case name   ${s(baseline.ms).padStart(8)}  (CPU ${s(baseline.cpuMs)})`,
    );
    console.log(
      `  resolution (median of ${RUNS})                             ${s(run.ms).padStart(8)}  (CPU ${s(run.cpuMs)})  ` +
        `${(run.ms / baseline.ms).toFixed(1)}× baseline  goal ≤ ${s(GOAL_MS)} for ≥ ${GOAL_NAMES.toLocaleString('en-US')} names: ${okTime ? 'met' : 'NOT MET'}`,
    );
    console.log(
      `  where the time goes: ${run.steps.map((x) => `${x.name} ${s(x.ms)} (CPU ${s(x.cpuMs)})`).join(', ')}`,
    );
    console.log(
      `  ${status.parties.toLocaleString('en-US')} parties → ${status.firms.toLocaleString('en-US')} firms ` +
        `(${status.merged.toLocaleString('en-US')} written more than one way), ${status.review.toLocaleString('en-US')} pairs to review`,
    );
    console.log(
      `  pairwise precision ${pct(q.precision)} (goal ≥ ${GOAL_PRECISION}: ${okP ? 'met' : 'NOT MET'}), ` +
        `recall ${pct(q.recall)} (goal ≥ ${GOAL_RECALL}: ${okR ? 'met' : 'NOT MET'})`,
    );
    return okTime && okP && okR;
  });
}

async function demoDataset(): Promise<boolean> {
  const sim = new SimData({ records: 50_000, seed: 20_240_601, hsSubheadings });
  return withLibrary(async (library) => {
    await library.saveRecords({ kind: 'shipments', request: {}, name: 'demo' }, [...sim.records()]);
    const run = await timed(() => library.firms.resolve({ force: true }));
    const status = await library.firms.status();
    const q = await score(library, sim);
    console.log(
      `demo workspace dataset (50,000 records as the service sends them, firm codes kept): ` +
        `${status.parties.toLocaleString('en-US')} parties → ${status.firms.toLocaleString('en-US')} firms in ${s(run.ms)}; ` +
        `precision ${pct(q.precision)}, recall ${pct(q.recall)}`,
    );
    return q.precision >= GOAL_PRECISION && q.recall >= GOAL_RECALL;
  });
}

async function main(): Promise<void> {
  // Other work on the machine stretches wall times (not CPU times): say how busy it was.
  console.log(
    `load average at start: ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' / ')} (1 / 5 / 15 min)`,
  );
  const a = await everyParty();
  const b = await demoDataset();
  console.log(
    `load average at end: ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' / ')}`,
  );
  console.log(a && b ? '\nall firm resolution goals met' : '\nsome firm resolution goals NOT MET');
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});

import { randomUUID } from 'node:crypto';
import { AppError } from '@shared/ipc/errors';
import type { ShipmentFilter } from '@shared/spec/filter';
import {
  whyNotWatchable,
  type RefreshOutcome,
  type RefreshPreview,
  type SnapshotView,
  type WatchDetail,
  type WatchSummary,
  type WatchTarget,
} from '@shared/watch/watch-contract';
import {
  LOST_COLUMN,
  SNAPSHOT_COLUMN,
  defaultDatasetName,
  type DateWindow,
  type HeldRecord,
  type Library,
  type RecordObject,
  type SnapshotRecord,
  type WatchRecord,
} from '../library';
import {
  fetchRest,
  plannedDownloads,
  probeRequest,
  probeWindow,
  recordKey,
  type ShipmentSource,
  type WindowFetch,
  type WindowProbe,
} from './fetch-window';
import { DEFAULT_OVERLAP_DAYS, MAX_OVERLAP_DAYS, describeWindow, inWindow, refreshWindows } from './plan';

/** Who a refresh runs for: the service client of the profile, and what its datasets record. */
export interface WatchContext {
  source: ShipmentSource;
  profileId: string | null;
  profileName: string | null;
  account: string | null;
  /** The service's address: a kept answer is one service's, even when a profile is pointed elsewhere. */
  serviceUrl?: string;
}

/**
 * How long a preview's cost check (and the records it fetched) is good for; a window's answer is kept
 * for a later check of the same question as long, counted from when the service gave it.
 */
export const PREVIEW_TTL_MS = 10 * 60_000;

/**
 * A probe's answer, kept so that a cost check asked again (Try again after the service stopped
 * answering partway, the dialog opened again) asks only for the windows it has no answer for: each
 * probe is a paid search.
 */
interface KeptAnswer {
  total: number;
  records: readonly RecordObject[];
  /** The watched query whose check asked it (null: a query not watched yet): its settings drop it. */
  watchId: string | null;
  /** When the service answered it (epoch ms). */
  at: number;
}

interface HeldPreview {
  preview: RefreshPreview;
  watch: WatchRecord | null;
  query: ShipmentFilter;
  name: string;
  presetId: string | null;
  overlapDays: number;
  probes: WindowProbe[];
  /** The kept answers the probes are: a snapshot taken from them drops them. */
  answerKeys: string[];
  profileId: string | null;
  account: string | null;
  expires: number;
}

export interface WatchService {
  list(): Promise<WatchSummary[]>;
  detail(watchId: string): Promise<WatchDetail>;
  /** Looks at the windows a refresh (or a first snapshot) would fetch and says what it will cost. */
  preview(target: WatchTarget, ctx: WatchContext, signal?: AbortSignal): Promise<RefreshPreview>;
  /**
   * Watches a library dataset a shipment search fetched: its rows become the first snapshot (nothing is
   * downloaded) and later refreshes fetch only what is new, as for a preset. Refused, in words, for a
   * dataset with no service query (an imported file), a firm search, or one watched already.
   */
  adopt(datasetId: string, name?: string): Promise<WatchDetail>;
  /** Takes the snapshot a preview priced; the preview's records are not fetched again. */
  refresh(previewId: string, ctx: WatchContext, signal?: AbortSignal): Promise<RefreshOutcome>;
  rename(watchId: string, name: string): Promise<WatchDetail>;
  setOverlap(watchId: string, days: number): Promise<WatchDetail>;
  /** The watch, its snapshots and its dataset. */
  remove(watchId: string): Promise<void>;
}

function stripSize(request: Record<string, unknown>): ShipmentFilter {
  const { size: _size, ...rest } = request;
  return rest as ShipmentFilter;
}

function snapshotView(s: SnapshotRecord): SnapshotView {
  return {
    no: s.no,
    takenAt: s.takenAt,
    status: s.status,
    records: s.records,
    added: s.added,
    lost: s.lost,
    newestDate: s.newestDate,
    downloads: s.downloads,
    requests: s.requests,
    windows: s.windows.map(describeWindow),
    incomplete: s.incomplete.map(describeWindow),
  };
}

export function createWatchService(
  library: Library,
  opts: {
    now?: () => number;
    /** Most records one search returns (the spec's size maximum). */
    cap?: number;
  } = {},
): WatchService {
  const now = opts.now ?? Date.now;
  const previews = new Map<string, HeldPreview>();
  const running = new Set<string>();
  /** Probe answers by the exact question signed: service, profile, account and the request itself. */
  const kept = new Map<string, KeptAnswer>();

  const sweep = (): void => {
    for (const [id, p] of previews) if (p.expires < now()) previews.delete(id);
    for (const [key, a] of kept) if (a.at + PREVIEW_TTL_MS < now()) kept.delete(key);
  };
  const forget = (watchId: string): void => {
    for (const [key, a] of kept) if (a.watchId === watchId) kept.delete(key);
  };

  /** The window's probe: the answer kept for the same question when there is one, else a search. */
  async function probe(
    query: ShipmentFilter,
    w: DateWindow,
    ctx: WatchContext,
    watchId: string | null,
    signal?: AbortSignal,
  ): Promise<{ probe: WindowProbe; key: string; at: number; reused: boolean }> {
    const key = JSON.stringify([ctx.serviceUrl ?? null, ctx.profileId, ctx.account, probeRequest(query, w)]);
    const known = kept.get(key);
    if (known) {
      const reused = { window: w, total: known.total, records: known.records };
      return { probe: reused, key, at: known.at, reused: true };
    }
    const asked = await probeWindow(query, w, ctx.source, signal);
    const at = now();
    kept.set(key, { total: asked.total, records: asked.records, watchId, at });
    return { probe: asked, key, at, reused: false };
  }

  async function detail(watchId: string): Promise<WatchDetail> {
    const w = await library.watches.get(watchId);
    const snaps = await library.watches.snapshots(watchId);
    return {
      id: w.id,
      name: w.name,
      datasetId: w.datasetId,
      request: w.request,
      query: defaultDatasetName('shipments', w.request),
      presetId: w.presetId,
      profileId: w.profileId,
      overlapDays: w.overlapDays,
      createdAt: w.createdAt,
      snapshots: snaps.map(snapshotView),
    };
  }

  /** Records held in the window, not lost (what a refresh fetches again). */
  const heldIn = (held: readonly HeldRecord[], w: { start?: string; end?: string }): number =>
    held.filter((h) => h.lostIn === null && inWindow(h.arrivalDate, w)).length;

  return {
    async list() {
      const out: WatchSummary[] = [];
      for (const w of await library.watches.list()) {
        const snaps = await library.watches.snapshots(w.id);
        const last = snaps[snaps.length - 1];
        out.push({
          id: w.id,
          name: w.name,
          datasetId: w.datasetId,
          query: defaultDatasetName('shipments', w.request),
          snapshots: snaps.length,
          lastTakenAt: last?.takenAt ?? null,
          records: last?.records ?? 0,
          status: last?.status ?? 'complete',
        });
      }
      return out;
    },

    detail,

    async preview(target, ctx, signal) {
      sweep();
      let watch: WatchRecord | null = null;
      let query: ShipmentFilter;
      let name: string;
      let presetId: string | null = null;
      let overlapDays = DEFAULT_OVERLAP_DAYS;
      let held: HeldRecord[] = [];
      let last: SnapshotRecord | undefined;
      if ('watchId' in target) {
        watch = await library.watches.get(target.watchId);
        if (
          (watch.profileId ?? null) !== (ctx.profileId ?? null) ||
          (watch.account ?? null) !== (ctx.account ?? null)
        )
          throw new AppError(
            'InvalidInput',
            'This query is watched with another connection profile or account: switch to it to refresh.',
          );
        query = stripSize(watch.request);
        name = watch.name;
        presetId = watch.presetId;
        overlapDays = watch.overlapDays;
        held = await library.watches.held(watch.datasetId);
        last = (await library.watches.snapshots(watch.id)).at(-1);
      } else {
        query = stripSize(target.request as Record<string, unknown>);
        name = target.name?.trim() || defaultDatasetName('shipments', query as Record<string, unknown>);
        presetId = target.presetId ?? null;
      }
      const windows = refreshWindows(
        query,
        last ? { newestDate: last.newestDate, incomplete: last.incomplete } : null,
        overlapDays,
      );
      // Window by window, each answer kept as it comes: a check stopped partway (the service gone,
      // a 5xx, a limit) and asked again spends only the windows it has no answer for.
      const answers = [];
      for (const w of windows) {
        try {
          answers.push(await probe(query, w, ctx, watch?.id ?? null, signal));
        } catch (e) {
          throw answers.length > 0 ? partway(e, answers.length, windows.length) : e;
        }
      }
      const probes = answers.map((a) => a.probe);
      // Good for as long as its oldest answer: nothing older than a fresh check's life is priced.
      const expires = Math.min(now(), ...answers.map((a) => a.at)) + PREVIEW_TTL_MS;
      const checkDownloads = probes.reduce((s, p) => s + p.records.length, 0);
      const planned = probes.map((p) => plannedDownloads(p, opts.cap));
      const preview: RefreshPreview = {
        previewId: randomUUID(),
        watchId: watch?.id ?? null,
        name,
        first: watch === null,
        since: last?.newestDate ?? null,
        overlapDays,
        windows: probes.map((p, i) => ({
          label: describeWindow(p.window),
          total: p.total,
          held: heldIn(held, p.window),
          downloads: planned[i]!.downloads,
        })),
        checkDownloads,
        checkRequests: probes.length,
        checkReused: answers.filter((a) => a.reused).length,
        downloads: planned.reduce((s, p) => s + p.downloads, 0),
        requests: planned.reduce((s, p) => s + p.requests, 0),
        exact: planned.every((p) => p.exact),
        expiresAt: new Date(expires).toISOString(),
      };
      previews.set(preview.previewId, {
        preview,
        watch,
        query,
        name,
        presetId,
        overlapDays,
        probes,
        answerKeys: answers.map((a) => a.key),
        profileId: ctx.profileId,
        account: ctx.account,
        expires,
      });
      return preview;
    },

    async adopt(datasetId, name) {
      const meta = await library.get(datasetId);
      const why = whyNotWatchable(meta);
      if (why) throw new AppError('InvalidInput', why);
      const already = await library.watches.byDataset(datasetId);
      if (already)
        throw new AppError('InvalidInput', `This dataset is watched already, as "${already.name}".`);
      const query = stripSize(meta.request);
      const own = refreshWindows(query, null, DEFAULT_OVERLAP_DAYS);
      const { records, newestDate } = await library.watches.extent(datasetId);
      // A dataset that holds only part of what matched (a sample, a stopped fetch) is an incomplete
      // snapshot: the first refresh fetches its whole query again rather than guess which dates it misses.
      const incomplete = meta.status === 'partial' ? own : [];
      const id = randomUUID();
      const watchName = (name?.trim() || meta.name).slice(0, 300);
      await library.write(async (tx) => {
        if (await tx.watch.isWatched(datasetId))
          throw new AppError('InvalidInput', 'This dataset is watched already.');
        await tx.watch.createWatch({
          id,
          datasetId,
          name: watchName,
          request: query as Record<string, unknown>,
          profileId: meta.profileId,
          account: meta.account,
          presetId: null,
          overlapDays: DEFAULT_OVERLAP_DAYS,
          createdAt: new Date(now()).toISOString(),
        });
        await tx.watch.markArrived(datasetId, 1);
        await tx.setExtraColumns(datasetId, [
          ...new Set([...meta.extraColumns, SNAPSHOT_COLUMN, LOST_COLUMN]),
        ]);
        if (watchName !== meta.name) await tx.setMeta(datasetId, 'name', watchName);
        await tx.watch.addSnapshot({
          watchId: id,
          no: 1,
          // The rows are as the service answered when they were fetched, not now.
          takenAt: meta.fetchedAt,
          status: meta.status,
          records,
          added: records,
          lost: 0,
          newestDate,
          downloads: 0,
          requests: 0,
          windows: own,
          incomplete,
          reportedTotal: meta.reportedTotal ?? records,
        });
      });
      return detail(id);
    },

    async refresh(previewId, ctx, signal) {
      sweep();
      const p = previews.get(previewId);
      if (!p)
        throw new AppError(
          'InvalidInput',
          'The cost check of this refresh is too old: check the cost again.',
        );
      if (p.profileId !== ctx.profileId || p.account !== ctx.account)
        throw new AppError(
          'InvalidInput',
          'The cost was checked with another connection profile: check it again.',
        );
      const lock = p.watch?.id ?? `new:${previewId}`;
      if (running.has(lock)) throw new AppError('InvalidInput', 'This query is being refreshed already.');
      running.add(lock);
      try {
        const fetched: WindowFetch[] = [];
        for (const probe of p.probes)
          fetched.push(
            await fetchRest(p.query, probe, ctx.source, {
              ...(signal ? { signal } : {}),
              ...(opts.cap ? { cap: opts.cap } : {}),
            }),
          );
        previews.delete(previewId);
        // Its answers are spent on this snapshot: a later check of the watch asks the service again.
        for (const key of p.answerKeys) kept.delete(key);
        if (p.watch) forget(p.watch.id);
        const downloads = p.preview.checkDownloads + fetched.reduce((s, f) => s + f.downloads, 0);
        const requests = p.preview.checkRequests + fetched.reduce((s, f) => s + f.requests, 0);

        const watch = p.watch;
        const held = watch ? await library.watches.held(watch.datasetId) : [];
        const snaps = watch ? await library.watches.snapshots(watch.id) : [];
        const last = snaps.at(-1);
        const no = (last?.no ?? 0) + 1;
        const heldBy = new Map(held.map((h) => [h.hashId, h]));
        const seen = new Map<string, RecordObject>();
        for (const f of fetched) for (const r of f.records) seen.set(recordKey(r), r);
        const added: RecordObject[] = [];
        const found: string[] = [];
        for (const [key, r] of seen) {
          const h = heldBy.get(key);
          if (!h) added.push({ ...r, [SNAPSHOT_COLUMN]: String(no) });
          else if (h.lostIn !== null) found.push(key);
        }
        // Gone: held, not lost yet, in a part of a window fetched whole, and not returned.
        const wholeParts = fetched.map((f) =>
          f.incomplete
            ? {
                ...(f.incomplete.end ? { start: nextDay(f.incomplete.end) } : {}),
                ...(f.window.end ? { end: f.window.end } : {}),
              }
            : f.window,
        );
        const lost = held
          .filter(
            (h) =>
              h.lostIn === null && !seen.has(h.hashId) && wholeParts.some((w) => inWindow(h.arrivalDate, w)),
          )
          .map((h) => h.hashId);
        const incomplete = fetched.flatMap((f) => (f.incomplete ? [f.incomplete] : []));
        const presentBefore = held.filter((h) => h.lostIn === null).length;
        const records = presentBefore + added.length + found.length - lost.length;
        let newest = last?.newestDate ?? null;
        for (const r of seen.values()) {
          const d = typeof r.arrivalDate === 'string' ? r.arrivalDate : '';
          if (d && (newest === null || d > newest)) newest = d;
        }
        const status = incomplete.length > 0 ? 'partial' : 'complete';
        const takenAt = new Date(now()).toISOString();
        const rowsBefore = watch ? await library.watches.rowCount(watch.datasetId) : 0;
        const watchId = await library.write(async (tx) => {
          let datasetId = watch?.datasetId;
          let id = watch?.id;
          if (!watch) {
            datasetId = await tx.createDataset({
              kind: 'shipments',
              request: p.query as Record<string, unknown>,
              name: p.name,
              profileId: ctx.profileId,
              profileName: ctx.profileName,
              account: ctx.account,
            });
            id = randomUUID();
            await tx.watch.createWatch({
              id,
              datasetId,
              name: p.name,
              request: p.query as Record<string, unknown>,
              profileId: ctx.profileId,
              account: ctx.account,
              presetId: p.presetId,
              overlapDays: p.overlapDays,
              createdAt: takenAt,
            });
          }
          await tx.appendRecords('shipments', datasetId!, rowsBefore, added, {
            path: 'shipments',
            context: 'Cannot store the snapshot',
          });
          await tx.watch.markLost(datasetId!, lost, no);
          await tx.watch.markFound(datasetId!, found);
          await tx.setExtraColumns(datasetId!, [SNAPSHOT_COLUMN, LOST_COLUMN]);
          await tx.finishDataset(datasetId!, {
            status,
            storedRows: rowsBefore + added.length,
            reportedTotal: records,
            fetchedAt: takenAt,
          });
          await tx.watch.addSnapshot({
            watchId: id!,
            no,
            takenAt,
            status,
            records,
            added: added.length,
            lost: lost.length,
            newestDate: newest,
            downloads,
            requests,
            windows: fetched.map((f) => f.window),
            incomplete,
            reportedTotal: fetched.reduce((s, f) => s + f.total, 0),
          });
          return id!;
        });
        const d = await detail(watchId);
        return {
          watch: d,
          snapshot: d.snapshots.at(-1)!,
          fetchDownloads: downloads - p.preview.checkDownloads,
        };
      } finally {
        running.delete(lock);
      }
    },

    async rename(watchId, name) {
      const n = name.trim();
      if (!n) throw new AppError('InvalidInput', 'A watched query needs a name.');
      const w = await library.watches.get(watchId);
      await library.write(async (tx) => {
        await tx.watch.rename(watchId, n.slice(0, 300));
        await tx.setMeta(w.datasetId, 'name', n.slice(0, 300));
      });
      return detail(watchId);
    },

    async setOverlap(watchId, days) {
      if (!Number.isInteger(days) || days < 0 || days > MAX_OVERLAP_DAYS)
        throw new AppError(
          'InvalidInput',
          `Days fetched again must be a whole number from 0 to ${MAX_OVERLAP_DAYS}.`,
        );
      await library.watches.get(watchId);
      await library.write((tx) => tx.watch.setOverlap(watchId, days));
      // Other windows now: no answer of the old ones is priced again.
      forget(watchId);
      return detail(watchId);
    },

    async remove(watchId) {
      const w = await library.watches.get(watchId);
      await library.write(async (tx) => {
        await tx.watch.deleteWatch(watchId);
        await tx.deleteDataset(w.datasetId);
      });
      forget(watchId);
    },
  };
}

/**
 * A check stopped after `answered` of its `all` windows, said with what it kept: nothing of it is lost,
 * and checking again asks only for the rest.
 */
function partway(e: unknown, answered: number, all: number): unknown {
  if (!(e instanceof AppError) || e.kind === 'Cancelled') return e;
  const rest = all - answered;
  const kept =
    answered === 1
      ? `1 of the ${all} date windows had been answered: its answer is kept`
      : `${answered} of the ${all} date windows had been answered: their answers are kept`;
  const others = rest === 1 ? 'the other one' : `the other ${rest}`;
  return new AppError(e.kind, `${e.message} ${kept}, and checking again asks only for ${others}.`, e.details);
}

function nextDay(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

import type { FirmSearchResponse } from '@shared/spec/responses';
import type { RecordObject } from '../library';
import type { FirmState, JobRow } from './job-state';
import type { RequestPolicy, RequestWait } from './request-policy';
import { eitherSignal } from './shipment-sweep';
import type { FirmSource, RunOptions } from './types';

export interface PagerOptions {
  policy: RequestPolicy;
  /** Stores one page's firms and the job's state (next page) in one unit of work. */
  commit: (firms: readonly RecordObject[]) => Promise<void>;
  /** Reports progress; `wait` while a rate-limit wait or a wait for the service is under way. */
  progress: (wait?: RequestWait) => void;
  /** Thrown between pages: cancel and pause. */
  checkStop: () => void;
}

/**
 * Fetches the pages of a firm search from `state.nextPage` to the last, storing each before asking for
 * the next, within the request policy; stops early at an empty page.
 */
export async function runFirmPager(
  job: JobRow,
  state: FirmState,
  source: FirmSource,
  run: RunOptions,
  opts: PagerOptions,
): Promise<void> {
  const filter = job.input.filter;
  const { signal } = run;
  const waitSignal = eitherSignal(signal, run.pause);
  const downloadsAtStart = state.downloads;
  opts.progress();
  while (state.totalPages === null || state.nextPage <= state.totalPages) {
    opts.checkStop();
    const page = state.nextPage;
    // A page costs about as many firms as the pages before it held (the spec does not say how many);
    // the last page may hold fewer, so it is always tried.
    const perPage = page > 1 ? Math.ceil(state.stored / (page - 1)) : 0;
    const left = opts.policy.budget(downloadsAtStart, state.downloads);
    if (perPage > left && page !== state.totalPages)
      throw opts.policy.outOfDownloads(job.input.account, 'firms/search', left, perPage);
    const res: FirmSearchResponse = await opts.policy.call(
      (attempts) => source.firmSearch({ ...filter, page }, { ...(signal ? { signal } : {}), ...attempts }),
      waitSignal,
      (wait) => opts.progress(wait ?? undefined),
      () => {
        // Served and charged, though unread: counted at about a page's firms, as the check above.
        state.requests++;
        state.downloads += perPage;
        const after = opts.policy.budget(downloadsAtStart, state.downloads);
        if (perPage > after && page !== state.totalPages)
          throw opts.policy.outOfDownloads(job.input.account, 'firms/search', after, perPage);
      },
    );
    state.requests++;
    state.downloads += res.firms.length;
    state.totalPages = res.total_pages;
    state.totalShipment = res.total_shipment;
    await opts.commit(res.firms);
    opts.progress();
    if (res.firms.length === 0) break;
  }
}

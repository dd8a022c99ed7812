import { describe, expect, it } from 'vitest';
import { libraryCalls } from '@shared/library/library-contract';
import { blockRequest, blockView, narrowsRows } from '../../src/renderer/src/features/library/block-request';

const bridgeAccepts = (request: unknown): boolean =>
  libraryCalls['library.getRows'].input.safeParse(request).success;

describe('Library grid block request', () => {
  const params = {
    sortModel: [{ colId: 'usdFob', sort: 'desc' as const }],
    filterModel: {
      hsCode: { filterType: 'text' as const, type: 'startsWith' as const, filter: '72' },
      importerName: { filterType: 'text' as const, type: 'contains' as const, filter: 'steel' },
    },
  };
  const pinned = { importerName: { filterType: 'firm' as const, firmId: 'firm-1' } };

  it('takes the grid’s sort and filters, a drill-down’s pinned condition over the analyst’s on the same column, the quick filter trimmed', () => {
    const view = blockView(params, pinned, '  acme  ltd ', false);
    expect(view).toEqual({
      sortModel: [{ colId: 'usdFob', sort: 'desc' }],
      filterModel: { hsCode: params.filterModel.hsCode, importerName: pinned.importerName },
      quickFilter: 'acme  ltd',
      resolvedFirms: false,
    });
    expect(narrowsRows(view)).toBe(true);
    expect(narrowsRows(blockView({ sortModel: [], filterModel: null }, {}, '   ', false))).toBe(false);
    expect(narrowsRows(blockView({ sortModel: [], filterModel: {} }, {}, 'x', false))).toBe(true);
  });

  it('a block of shown columns and the whole row at the same place are read in the same view', () => {
    const view = blockView(params, {}, 'steel', true);
    const block = blockRequest('ds-1', view, { startRow: 500, endRow: 600 }, ['importerName', 'usdFob']);
    const whole = blockRequest('ds-1', view, { startRow: 537, endRow: 538 });
    expect(block).toEqual({
      id: 'ds-1',
      startRow: 500,
      endRow: 600,
      sortModel: view.sortModel,
      filterModel: view.filterModel,
      quickFilter: 'steel',
      columns: ['importerName', 'usdFob'],
    });
    // The whole row: every field, with the resolved firm columns the view asks for, in the same order and filters.
    expect(whole).toEqual({
      id: 'ds-1',
      startRow: 537,
      endRow: 538,
      sortModel: view.sortModel,
      filterModel: view.filterModel,
      quickFilter: 'steel',
      resolvedFirms: true,
    });
    expect(bridgeAccepts(block)).toBe(true);
    expect(bridgeAccepts(whole)).toBe(true);
  });

  it('sends no quick filter when it is blank, and whole rows without firm names unless the view wants them', () => {
    const view = blockView({ sortModel: [], filterModel: null }, {}, '  ', false);
    const r = blockRequest('ds-2', view, { startRow: 0, endRow: 100 });
    expect(r).toEqual({ id: 'ds-2', startRow: 0, endRow: 100, sortModel: [], filterModel: {} });
    expect('quickFilter' in r || 'resolvedFirms' in r || 'columns' in r).toBe(false);
    expect(bridgeAccepts(r)).toBe(true);
  });
});

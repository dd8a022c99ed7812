import { describe, expect, it } from 'vitest';
import type { UnitValues } from '@shared/analysis/analysis-contract';
import { unitValuesTable } from '../../src/renderer/src/features/analysis/table-export';

describe('the unit values export', () => {
  it("writes the note's counts grouped, as every count the analyst reads is", () => {
    const v: UnitValues = {
      datasetId: 'd1',
      role: 'importer',
      rows: [],
      groups: 12_500,
      flagged: 0,
      shipments: 48_213,
      shipmentsUsed: 40_007,
    };
    const { note } = unitValuesTable(v, 'Steel 2025');
    expect(note).toContain('40,007 of 48,213 shipments had a value and a weight.');
    expect(note).toContain('Only the 0 groups furthest from their HS median of 12,500 are listed.');
    expect(note).not.toMatch(/\d{4}/);
  });
});

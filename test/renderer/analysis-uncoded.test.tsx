// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from './render';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Measures, SummaryResult, SummaryRow } from '@shared/analysis/analysis-contract';
import { SummarySection } from '../../src/renderer/src/features/analysis/summary-section';
import { uncodedFirmNote, useAnalysisStore } from '../../src/renderer/src/features/analysis/analysis-store';

beforeAll(() => {
  // jsdom has no canvas: the chart draws nothing, the section's text is what is looked at.
  HTMLCanvasElement.prototype.getContext = () => null;
});
afterEach(cleanup);

const measures = (shipments: number): Measures => ({
  shipments,
  usdFob: null,
  usdCif: null,
  grossWeightKg: null,
  usdFobMissing: 0,
  usdCifMissing: 0,
  grossWeightMissing: 0,
});
const row = (key: string | null, label: string, shipments: number): SummaryRow => ({
  ...measures(shipments),
  key,
  label,
  detail: null,
  shares: { shipments: 0, usdFob: 0, usdCif: 0, grossWeightKg: 0 },
  drill: null,
});
const result = (rows: SummaryRow[], firms: SummaryResult['firms'] = 'asWritten'): SummaryResult => ({
  datasetId: 'd1',
  kind: 'importers',
  measure: 'shipments',
  firms,
  totals: measures(rows.reduce((n, r) => n + r.shipments, 0)),
  rows,
  omittedGroups: 0,
});

describe('firms without a firm code, counted as written', () => {
  it('are said to be one row, with Resolved offered: one click counts firms by their names', () => {
    useAnalysisStore.setState({
      firms: 'asWritten',
      summaries: {
        importers: { value: result([row(null, '(no firm code)', 3)]), loading: false, error: null },
      },
    });
    render(<SummarySection kind="importers" />);
    expect(screen.getByTestId('analysis-uncoded-importers').textContent).toContain(
      'None of the 3 shipments gives a firm code (an imported file rarely does), so “As written” counts their importers as one firm',
    );
    fireEvent.click(screen.getByTestId('analysis-uncoded-resolve-importers'));
    expect(useAnalysisStore.getState().firms).toBe('resolved');
  });

  it('says how many of them lack one, and nothing when every firm has a code or firms are resolved', () => {
    const some = result([row('abc', 'Acme', 5), row(null, '(no firm code)', 2)]);
    expect(uncodedFirmNote(some)).toMatch(/^2 of the 7 shipments give no firm code/);
    expect(uncodedFirmNote(result([row('abc', 'Acme', 5)]))).toBeNull();
    expect(uncodedFirmNote(result([row(null, '(no firm)', 5)], 'resolved'))).toBeNull();
    expect(uncodedFirmNote({ ...some, kind: 'arrivalPorts' })).toBeNull();
  });
});

import { useEffect } from 'react';
import { MEASURES, type FirmGrouping, type Measure } from '@shared/analysis/analysis-contract';
import { ErrorMessage } from '../../components/error-message';
import { chosenDatasetIsEmpty, useAnalysisStore } from './analysis-store';
import { MEASURE_LABELS } from './chart-options';
import { DiffPanel } from './diff-panel';
import { count } from './format';
import { ProfilePanel } from './profile-panel';
import { SummarySection } from './summary-section';
import './analysis.css';

/** Summaries, charts, firm profiles and snapshot diffs of one shipment dataset of the library. */
export function AnalysisPage() {
  const { selectDataset, setMeasure, setFirms } = useAnalysisStore.getState();
  const datasets = useAnalysisStore((s) => s.datasets);
  const datasetId = useAnalysisStore((s) => s.datasetId);
  const measure = useAnalysisStore((s) => s.measure);
  const firms = useAnalysisStore((s) => s.firms);
  const exportError = useAnalysisStore((s) => s.exportError);
  const empty = useAnalysisStore(chosenDatasetIsEmpty);
  useEffect(() => {
    void useAnalysisStore.getState().loadDatasets();
  }, []);
  const list = datasets.value ?? [];
  return (
    <section className="page analysis" data-testid="analysis-page">
      <header className="page__header analysis__header">
        <h1>Analysis</h1>
        <label>
          Dataset{' '}
          <select
            data-testid="analysis-dataset"
            value={datasetId ?? ''}
            onChange={(e) => void selectDataset(e.target.value)}
            disabled={list.length === 0}
          >
            {list.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name} ({count(d.storedRows, 'row')})
              </option>
            ))}
          </select>
        </label>
        <label>
          Measure{' '}
          <select
            data-testid="analysis-measure"
            value={measure}
            onChange={(e) => void setMeasure(e.target.value as Measure)}
          >
            {MEASURES.map((m) => (
              <option key={m} value={m}>
                {MEASURE_LABELS[m]}
              </option>
            ))}
          </select>
        </label>
        <label title="Resolved: every spelling of a firm counted as one (Firms of the library); as written: one firm per firm code, as the records name them">
          Firms{' '}
          <select
            data-testid="analysis-firms"
            value={firms}
            onChange={(e) => void setFirms(e.target.value as FirmGrouping)}
          >
            <option value="asWritten">as written</option>
            <option value="resolved">resolved</option>
          </select>
        </label>
      </header>
      {datasets.error && <ErrorMessage error={datasets.error} testId="analysis-datasets-error" />}
      {exportError && <ErrorMessage error={exportError} testId="analysis-export-error" />}
      {datasets.value && list.length === 0 && (
        <p className="empty" data-testid="analysis-empty">
          No shipment datasets in the library yet. Run a shipment search first.
        </p>
      )}
      {datasetId && empty && (
        <p className="empty" data-testid="analysis-dataset-empty">
          This dataset has no shipments to analyse. Choose another dataset, or run a search that finds
          shipments.
        </p>
      )}
      {datasetId && !empty && (
        <>
          <p className="analysis__note">
            Sums count only usable numbers; fillers such as “-” or “N/A” are left out and marked with *. Gross
            weight is converted to kg from KG, G, T/MT, LB units; other or blank units are left out.
          </p>
          <ProfilePanel />
          {(
            ['importers', 'exporters', 'months', 'hs', 'flows', 'departurePorts', 'arrivalPorts'] as const
          ).map((k) => (
            <SummarySection key={k} kind={k} />
          ))}
          <DiffPanel />
        </>
      )}
    </section>
  );
}

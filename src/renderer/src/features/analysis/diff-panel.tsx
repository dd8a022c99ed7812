import { ErrorMessage } from '../../components/error-message';
import { useAnalysisStore } from './analysis-store';
import { num } from './format';
import { diffTable } from './table-export';

/** New, lost and kept firms between the chosen dataset and a newer one. */
export function DiffPanel() {
  const { exportTable, runDiff, setDiffOptions } = useAnalysisStore.getState();
  const datasets = useAnalysisStore((s) => s.datasets.value) ?? [];
  const datasetId = useAnalysisStore((s) => s.datasetId);
  const diff = useAnalysisStore((s) => s.diff);
  const others = datasets.filter((d) => d.id !== datasetId);
  const nameOf = (id: string | null) => datasets.find((d) => d.id === id)?.name ?? '';
  return (
    <section className="analysis__section" data-testid="analysis-diff">
      <header className="analysis__section-header">
        <h2>Snapshot diff</h2>
        <label>
          Compare with{' '}
          <select
            data-testid="analysis-diff-compare"
            value={diff.compareId ?? ''}
            onChange={(e) => setDiffOptions({ compareId: e.target.value || null })}
          >
            <option value="">(choose a newer dataset)</option>
            {others.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name}
              </option>
            ))}
          </select>
        </label>
        <select
          data-testid="analysis-diff-role"
          value={diff.role}
          onChange={(e) => setDiffOptions({ role: e.target.value === 'exporter' ? 'exporter' : 'importer' })}
        >
          <option value="importer">Importers</option>
          <option value="exporter">Exporters</option>
        </select>
        <span className="analysis__actions">
          <button
            type="button"
            className="button button--primary"
            data-testid="analysis-diff-run"
            disabled={!diff.compareId || diff.loading}
            onClick={() => void runDiff()}
          >
            Compare
          </button>
          <button
            type="button"
            className="button"
            data-testid="analysis-diff-xlsx"
            disabled={!diff.value}
            onClick={() =>
              diff.value &&
              void exportTable(
                diffTable('Snapshot diff', diff.value, {
                  datasetName: `${nameOf(diff.value.baseId)} vs ${nameOf(diff.value.compareId)}`,
                }),
              )
            }
          >
            Excel
          </button>
        </span>
      </header>
      {diff.error && <ErrorMessage error={diff.error} testId="analysis-diff-error" />}
      {diff.value && (
        <>
          <p data-testid="analysis-diff-counts">
            {diff.value.counts.new} new · {diff.value.counts.lost} lost · {diff.value.counts.kept} in both
          </p>
          <div className="analysis__table-wrap">
            <table className="analysis__table" data-testid="analysis-diff-table">
              <thead>
                <tr>
                  <th className="analysis__text">Status</th>
                  <th className="analysis__text">Firm</th>
                  <th>Shipments before → after</th>
                  <th>USD FOB change</th>
                </tr>
              </thead>
              <tbody>
                {diff.value.rows.slice(0, 300).map((r, i) => (
                  <tr
                    key={r.firmId ?? r.urlCode}
                    data-testid={`analysis-diff-row-${i}`}
                    data-status={r.status}
                  >
                    <td className="analysis__text">{r.status}</td>
                    <td className="analysis__text analysis__name" title={`${r.name} ${r.countryCode}`}>
                      {r.name} <span className="analysis__detail">{r.countryCode}</span>
                    </td>
                    <td>
                      {num(r.shipmentsBefore)} → {num(r.shipmentsAfter)} ({r.shipmentsChange >= 0 ? '+' : ''}
                      {num(r.shipmentsChange)})
                    </td>
                    <td>{num(r.usdFobChange, 2)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}

import { isUnlimited, USAGE_METRICS, type MetricSummary, type UsageSummary } from '@shared/spec/usage';
import { ErrorMessage } from '../../components/error-message';
import type { TestState } from './settings-store';

const fmt = new Intl.NumberFormat();

function metricOrder(metrics: Record<string, MetricSummary>): string[] {
  const known = USAGE_METRICS.filter((m) => m in metrics);
  const extra = Object.keys(metrics).filter((m) => !(USAGE_METRICS as readonly string[]).includes(m));
  return [...known, ...extra.sort()];
}

function UsageTable({ usage }: { usage: UsageSummary }) {
  const accounts = Object.keys(usage);
  if (accounts.length === 0) return <p className="muted">Connected, but the service reported no accounts.</p>;
  return (
    <>
      {accounts.map((account) => {
        const metrics = usage[account] ?? {};
        return (
          <table
            key={account}
            className="usage-table"
            data-testid="test-result-account"
            data-account={account}
          >
            <caption>
              Account <strong>{account}</strong>
            </caption>
            <thead>
              <tr>
                <th scope="col">Metric</th>
                <th scope="col" className="num">
                  Used
                </th>
                <th scope="col" className="num">
                  Limit
                </th>
              </tr>
            </thead>
            <tbody>
              {metricOrder(metrics).map((name) => {
                const m = metrics[name] as MetricSummary;
                return (
                  <tr key={name} data-testid="test-result-metric" data-metric={name}>
                    <th scope="row">{name}</th>
                    <td className="num">{fmt.format(m.current)}</td>
                    <td className="num">{isUnlimited(m) ? 'unlimited' : fmt.format(m.limit)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        );
      })}
    </>
  );
}

export function TestResult({ state }: { state: TestState | undefined }) {
  if (!state) return null;
  if (state.status === 'running') {
    return (
      <div className="test-result" data-testid="test-result" data-status="running" aria-live="polite">
        Testing connection…
      </div>
    );
  }
  if (state.status === 'failed') {
    return (
      <div className="test-result" data-testid="test-result" data-status="failed" aria-live="polite">
        <ErrorMessage error={state.error} testId="test-result-error" />
      </div>
    );
  }
  return (
    <div className="test-result" data-testid="test-result" data-status="passed" aria-live="polite">
      <div className="message message--ok">Connection works. Usage and limits reported by the service:</div>
      <UsageTable usage={state.usage} />
    </div>
  );
}

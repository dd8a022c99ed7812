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

/**
 * The profile's default account is sent with every request that names none; a name the service did
 * not report would make every such search fail with 400, so the test says so now.
 */
export function defaultAccountWarning(usage: UsageSummary, accountName: string | undefined): string | null {
  const name = accountName?.trim();
  const accounts = Object.keys(usage);
  if (!name || accounts.includes(name)) return null;
  return `The profile's default account “${name}” is not among the accounts the service reported (${accounts.length ? accounts.join(', ') : 'none'}). Searches that name no account would be refused: edit the profile and choose one of these.`;
}

/** `accountName`: the profile's default account, checked against the accounts the service reports. */
export function TestResult({ state, accountName }: { state: TestState | undefined; accountName?: string }) {
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
  const warning = defaultAccountWarning(state.usage, accountName);
  return (
    <div className="test-result" data-testid="test-result" data-status="passed" aria-live="polite">
      <div className="message message--ok">Connection works. Usage and limits reported by the service:</div>
      {warning && (
        <div
          className="message"
          role="alert"
          data-testid="test-result-account-warning"
          style={{ color: 'var(--danger, #c0392b)' }}
        >
          {warning}
        </div>
      )}
      <UsageTable usage={state.usage} />
    </div>
  );
}

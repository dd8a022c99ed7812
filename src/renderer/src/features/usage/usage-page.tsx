import { useEffect } from 'react';
import {
  USAGE_METRICS,
  isUnlimited,
  metricLabel,
  parseSearchedHsCodes,
  type MetricSummary,
} from '@shared/spec';
import { ErrorMessage } from '../../components/error-message';
import { refreshUsage, useUsageStore } from '../../session';

const fmt = (n: number) => n.toLocaleString('en-US');
const slug = (s: string) => s.replace(/[^A-Za-z0-9]+/g, '-');

function MetricRow({ account, metric, m }: { account: string; metric: string; m: MetricSummary }) {
  const unlimited = isUnlimited(m);
  const ratio = unlimited || m.limit <= 0 ? 0 : Math.min(1, m.current / m.limit);
  const colour = ratio >= 1 ? '#c0392b' : ratio >= 0.8 ? '#e67e22' : '#2e86de';
  const codes = metric === 'searchedHsCodes' ? parseSearchedHsCodes(m.notes) : [];
  const id = `usage-${slug(account)}-${slug(metric)}`;
  return (
    <tr data-testid={id} data-current={m.current} data-limit={m.limit}>
      <th scope="row" style={{ textAlign: 'left', fontWeight: 'normal' }}>
        {metricLabel(metric)}
        <div style={{ fontSize: 11, opacity: 0.7 }}>{metric}</div>
      </th>
      <td style={{ width: 280 }}>
        {unlimited ? (
          <span data-testid={`${id}-unlimited`}>Unlimited</span>
        ) : (
          <div
            role="meter"
            aria-valuemin={0}
            aria-valuemax={m.limit}
            aria-valuenow={m.current}
            aria-label={metricLabel(metric)}
            style={{ height: 10, background: 'var(--track, #ddd)', borderRadius: 5, overflow: 'hidden' }}
          >
            <div style={{ width: `${ratio * 100}%`, height: '100%', background: colour }} />
          </div>
        )}
      </td>
      <td data-testid={`${id}-text`} style={{ whiteSpace: 'nowrap', paddingLeft: 8 }}>
        {fmt(m.current)} / {unlimited ? 'unlimited' : fmt(m.limit)}
        {!unlimited && m.limit > 0 ? ` (${fmt(Math.max(0, m.limit - m.current))} left)` : ''}
      </td>
      <td style={{ paddingLeft: 8 }}>
        {codes.length > 0 && (
          <span data-testid={`${id}-codes`}>
            {codes.map((c) => (
              <code key={c} style={{ marginRight: 4 }}>
                {c}
              </code>
            ))}
          </span>
        )}
        {metric === 'searchedHsCodes' && codes.length === 0 && m.notes && m.notes !== 'unlimited'
          ? m.notes
          : null}
      </td>
    </tr>
  );
}

/** Every metric of every account of the active profile, with its limit. */
export function UsagePage() {
  const summary = useUsageStore((s) => s.summary);
  const error = useUsageStore((s) => s.error);
  const loading = useUsageStore((s) => s.loading);
  const refreshedAt = useUsageStore((s) => s.refreshedAt);
  useEffect(() => {
    void refreshUsage();
  }, []);
  return (
    <section className="page usage-page" data-testid="usage-page">
      <header style={{ display: 'flex', gap: 12, alignItems: 'center' }}>
        <h1>Usage</h1>
        <button
          type="button"
          data-testid="usage-refresh"
          disabled={loading}
          onClick={() => void refreshUsage()}
        >
          {loading ? 'Refreshing…' : 'Refresh'}
        </button>
        {refreshedAt && (
          <small data-testid="usage-refreshed-at">as of {new Date(refreshedAt).toLocaleTimeString()}</small>
        )}
      </header>
      <p data-testid="usage-note">
        <small>
          Read from the service at most once a minute (each read is a request it counts); what the app spends
          in between is counted as its answers arrive.
        </small>
      </p>
      {error && <ErrorMessage error={error} testId="usage-error" />}
      {summary && Object.keys(summary).length === 0 && <p>The service reported no accounts.</p>}
      {summary &&
        Object.entries(summary).map(([account, metrics]) => {
          // Known metrics in the spec's order, then whatever else the service reports.
          const names = [
            ...USAGE_METRICS.filter((m) => m in metrics),
            ...Object.keys(metrics).filter((m) => !(USAGE_METRICS as readonly string[]).includes(m)),
          ];
          return (
            <div key={account} data-testid={`usage-account-${slug(account)}`}>
              <h2>Account: {account}</h2>
              <table style={{ borderSpacing: '0 6px' }}>
                <tbody>
                  {names.map((metric) => (
                    <MetricRow
                      key={metric}
                      account={account}
                      metric={metric}
                      m={metrics[metric] as MetricSummary}
                    />
                  ))}
                </tbody>
              </table>
            </div>
          );
        })}
    </section>
  );
}

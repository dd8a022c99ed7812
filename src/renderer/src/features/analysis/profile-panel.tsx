import { useEffect, useRef } from 'react';
import type { SummaryRow } from '@shared/analysis/analysis-contract';
import { ErrorMessage } from '../../components/error-message';
import { chosenDataset, useAnalysisStore } from './analysis-store';
import { count, num, pct } from './format';
import { summaryTable } from './table-export';

/** A firm's profile in the chosen dataset: its partners, HS mix and monthly volume. */
export function ProfilePanel() {
  const { closeProfile, drillDown } = useAnalysisStore.getState();
  const profile = useAnalysisStore((s) => s.profile);
  const p = profile.value;
  const el = useRef<HTMLElement>(null);
  const shown = p !== null || profile.loading || profile.error !== null;
  // The panel opens above the summaries, usually off screen from the row's Profile button: bring it in.
  useEffect(() => {
    if (profile.loading) el.current?.scrollIntoView?.({ block: 'start' });
  }, [profile.loading]);
  if (!shown) return null;
  return (
    <section ref={el} className="analysis__section analysis__profile" data-testid="analysis-profile">
      <header className="analysis__section-header">
        <h2>{p ? `${p.name} (${p.countryCode})` : 'Firm profile'}</h2>
        <span className="analysis__actions">
          {p?.drillAll && (
            <button
              type="button"
              className="button"
              data-testid="analysis-profile-all-rows"
              title="Every shipment of this firm, under any of its spellings, in either role"
              onClick={() => p.drillAll && drillDown({ drill: p.drillAll })}
            >
              All its shipments
            </button>
          )}
          <button
            type="button"
            className="button"
            data-testid="analysis-profile-close"
            onClick={closeProfile}
          >
            Close
          </button>
        </span>
      </header>
      {profile.loading && <p>Loading…</p>}
      {profile.error && <ErrorMessage error={profile.error} testId="analysis-profile-error" />}
      {p && (
        <>
          <p data-testid="analysis-profile-summary">
            As importer: {count(p.asImporter.shipments, 'shipment')}, USD FOB {num(p.asImporter.usdFob, 2)} ·
            As exporter: {count(p.asExporter.shipments, 'shipment')}, USD FOB {num(p.asExporter.usdFob, 2)} ·
            First {p.firstShipment ?? '—'}, last {p.lastShipment ?? '—'}
          </p>
          {p.firmId !== null && p.spellings.length > 1 && (
            <p data-testid="analysis-profile-spellings">
              Written {count(p.spellings.length, 'way')}: {p.spellings.join(' · ')}
            </p>
          )}
          <ProfileList testId="analysis-profile-partners" title="Partners" firm={p.name} rows={p.partners} />
          <ProfileList testId="analysis-profile-hs" title="HS mix (headings)" firm={p.name} rows={p.hsMix} />
          <ProfileList
            testId="analysis-profile-months"
            title="Monthly volume"
            firm={p.name}
            rows={p.monthly}
          />
        </>
      )}
    </section>
  );
}

function ProfileList({
  title,
  firm,
  rows,
  testId,
}: {
  title: string;
  firm: string;
  rows: SummaryRow[];
  testId: string;
}) {
  const { drillDown, exportTable } = useAnalysisStore.getState();
  const datasetName = useAnalysisStore((s) => chosenDataset(s)?.name);
  return (
    <div data-testid={testId}>
      <h3>
        {title}{' '}
        <button
          type="button"
          className="button"
          data-testid={`${testId}-xlsx`}
          // The firm is in the title so the profiles of two firms do not save over each other.
          onClick={() =>
            void exportTable(summaryTable(`${title} ${firm}`.slice(0, 100), rows, { datasetName }))
          }
        >
          Excel
        </button>
      </h3>
      <div className="analysis__table-wrap">
        <table className="analysis__table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Shipments</th>
              <th>USD FOB</th>
              <th>Share (Shipments)</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr
                key={`${r.key ?? ''}-${r.detail ?? ''}-${i}`}
                data-testid={`${testId}-${i}`}
                onClick={() => drillDown(r)}
                className={r.drill ? 'analysis__row--drill' : undefined}
              >
                <td className="analysis__name" title={r.detail ? `${r.label} ${r.detail}` : r.label}>
                  {r.label}
                  {r.detail ? <span className="analysis__detail"> {r.detail}</span> : null}
                </td>
                <td>{num(r.shipments)}</td>
                <td>{num(r.usdFob, 2)}</td>
                <td>{pct(r.shares.shipments)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

import { useState } from 'react';
import type { ShipmentRecord } from '@shared/spec';
import type { BridgeError } from '@shared/ipc/errors';
import { ErrorMessage } from '../../components/error-message';
import { countShipmentsOf, openShipmentsOf, type PartyRole } from './firm-shipments';

function Party({ role, row }: { role: PartyRole; row: ShipmentRecord }) {
  const name = row[`${role}Name`];
  const code = row[`${role}UrlCode`];
  const [count, setCount] = useState<number | null>(null);
  const [error, setError] = useState<BridgeError | null>(null);
  const [busy, setBusy] = useState(false);
  const tid = `party-${role}`;
  return (
    <section data-testid={tid} style={{ marginBottom: 12 }}>
      <h3 style={{ fontSize: 14, margin: '4px 0' }}>{role === 'importer' ? 'Importer' : 'Exporter'}</h3>
      <div data-testid={`${tid}-name`}>{name || '(no name)'}</div>
      <div style={{ fontSize: 12, opacity: 0.8 }}>
        {row[`${role}Country`]} {row[`${role}CountryCode`] ? `(${row[`${role}CountryCode`]})` : ''} · UrlCode:{' '}
        <code data-testid={`${tid}-urlcode`}>{code || '—'}</code>
      </div>
      <div style={{ display: 'flex', gap: 4, marginTop: 4 }}>
        <button
          type="button"
          data-testid={`${tid}-count`}
          disabled={!code || busy}
          title={
            code
              ? 'Count all shipments of this firm (shipments.count)'
              : 'No UrlCode on this record: it cannot be counted'
          }
          onClick={() => {
            setBusy(true);
            setError(null);
            void countShipmentsOf(code).then((r) => {
              setBusy(false);
              if (r.ok) setCount(r.value.shipment_count);
              else setError(r.error);
            });
          }}
        >
          {busy ? 'Counting…' : 'Count its shipments'}
        </button>
        <button
          type="button"
          data-testid={`${tid}-open`}
          disabled={!name}
          onClick={() => openShipmentsOf(role, name)}
        >
          Open its shipments
        </button>
      </div>
      {count !== null && (
        <div data-testid={`${tid}-count-result`} data-count={count}>
          {count.toLocaleString('en-US')} shipments in total
        </div>
      )}
      {error && <ErrorMessage error={error} testId={`${tid}-error`} />}
    </section>
  );
}

/** The parties of one shipment row, with the firm actions that need their UrlCode. */
export function PartyPanel({ row, onClose }: { row: ShipmentRecord; onClose: () => void }) {
  return (
    <aside
      data-testid="party-panel"
      style={{ width: 300, borderLeft: '1px solid var(--border, #999)', paddingLeft: 8 }}
    >
      <div style={{ display: 'flex', justifyContent: 'space-between' }}>
        <strong>Shipment parties</strong>
        <button type="button" data-testid="party-panel-close" onClick={onClose} aria-label="Close">
          ×
        </button>
      </div>
      <Party role="importer" row={row} />
      <Party role="exporter" row={row} />
      <p style={{ fontSize: 11, opacity: 0.75 }}>
        “Open its shipments” searches by firm name: the service has no firm-code filter for shipment search.
      </p>
    </aside>
  );
}

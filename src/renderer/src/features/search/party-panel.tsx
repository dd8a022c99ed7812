import { useState } from 'react';
import { Button, Code, Drawer, Group, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconCalculator, IconSearch } from '@tabler/icons-react';
import type { ShipmentRecord } from '@shared/spec';
import type { BridgeError } from '@shared/ipc/errors';
import { ErrorMessage } from '../../components/error-message';
import { countShipmentsOf, openShipmentsOf, type PartyRole } from './firm-shipments';

function Party({ role, row, onOpened }: { role: PartyRole; row: ShipmentRecord; onOpened: () => void }) {
  const name = row[`${role}Name`];
  const code = row[`${role}UrlCode`];
  const country = row[`${role}Country`];
  const countryCode = row[`${role}CountryCode`];
  const [count, setCount] = useState<number | null>(null);
  const [error, setError] = useState<BridgeError | null>(null);
  const [busy, setBusy] = useState(false);
  const tid = `party-${role}`;
  return (
    <Stack gap="xs" component="section" data-testid={tid} aria-labelledby={`${tid}-heading`}>
      <Title order={3} id={`${tid}-heading`}>
        {role === 'importer' ? 'Importer' : 'Exporter'}
      </Title>
      <Text fw={600} data-testid={`${tid}-name`}>
        {name || '(no name)'}
      </Text>
      <Text fz="sm" c="dimmed">
        {[country, countryCode ? `(${countryCode})` : ''].filter(Boolean).join(' ') || 'Country not given'} ·
        firm code <Code data-testid={`${tid}-urlcode`}>{code || '—'}</Code>
      </Text>
      <Group gap="sm">
        <Tooltip
          label={
            code
              ? 'Counts every shipment of this firm in the service (one request)'
              : 'This record gives no firm code, so its shipments cannot be counted'
          }
        >
          <Button
            variant="default"
            leftSection={<IconCalculator size={16} stroke={1.6} />}
            data-testid={`${tid}-count`}
            disabled={!code}
            loading={busy}
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
            Count its shipments
          </Button>
        </Tooltip>
        <Button
          variant="default"
          leftSection={<IconSearch size={16} stroke={1.6} />}
          data-testid={`${tid}-open`}
          disabled={!name}
          onClick={() => {
            openShipmentsOf(role, name);
            onOpened();
          }}
        >
          Open its shipments
        </Button>
      </Group>
      {count !== null && (
        <Text fz="sm" data-testid={`${tid}-count-result`} data-count={count}>
          {count.toLocaleString('en-US')} shipments in total
        </Text>
      )}
      {error && <ErrorMessage error={error} testId={`${tid}-error`} />}
    </Stack>
  );
}

/**
 * The parties of one shipment row, with the firm actions that need their firm code: a drawer from the
 * right, as the other side panels are (Escape closes it and the focus goes back to the row's button).
 */
export function PartyPanel({ row, onClose }: { row: ShipmentRecord | null; onClose: () => void }) {
  return (
    <Drawer
      opened={row !== null}
      onClose={onClose}
      position="right"
      // Wide enough for a party's two actions side by side.
      size={460}
      // The drawer's title is a heading already: the Title only styles it.
      title={
        <Title order={2} component="span">
          Shipment parties
        </Title>
      }
      // On the panel itself (the drawer's root has no box of its own).
      attributes={{ content: { 'data-testid': 'party-panel' } }}
      closeButtonProps={
        { 'aria-label': 'Close the shipment parties', 'data-testid': 'party-panel-close' } as object
      }
    >
      {row && (
        <Stack gap="lg">
          {/* Keyed by the row, so a count or an error of another shipment's party is not shown. */}
          <Party key={`i-${row.hashId}`} role="importer" row={row} onOpened={onClose} />
          <Party key={`e-${row.hashId}`} role="exporter" row={row} onOpened={onClose} />
          <Text fz="xs" c="dimmed">
            “Open its shipments” fills the Search filter with the firm’s name: the service cannot search
            shipments by firm code, so other firms with a similar name may be found too.
          </Text>
        </Stack>
      )}
    </Drawer>
  );
}

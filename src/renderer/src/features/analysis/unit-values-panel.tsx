import { Badge, Button, Group, NativeSelect, Stack, Table, Text, TextInput } from '@mantine/core';
import { useEffect } from 'react';
import { ErrorMessage } from '../../components/error-message';
import { useAnalysisStore } from './analysis-store';
import { useUnitValuesStore } from './unit-values-store';

const n = (v: number): string => v.toLocaleString('en-US');
const price = (v: number | null): string =>
  v === null ? '—' : v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 4 });

/** USD per kg by HS code, firm and partner country, outliers within each HS code first; a row opens its shipments. */
export function UnitValuesPanel() {
  const { load, setRole, setHs, drill, exportXlsx } = useUnitValuesStore.getState();
  const datasetId = useAnalysisStore((s) => s.datasetId);
  const role = useUnitValuesStore((s) => s.role);
  const hs = useUnitValuesStore((s) => s.hs);
  const value = useUnitValuesStore((s) => s.value);
  const loading = useUnitValuesStore((s) => s.loading);
  const error = useUnitValuesStore((s) => s.error);
  useEffect(() => {
    void load();
  }, [datasetId, load]);
  const shown = value?.rows.slice(0, 300) ?? [];
  return (
    <Stack gap="sm" component="section" data-testid="analysis-unit-values" data-loading={loading}>
      <Text c="dimmed" fz="sm">
        USD FOB per kg of gross weight (units converted to kg). Flagged: outside 1.5 × IQR of the log unit
        values of the HS code — candidates for under- or over-invoicing.
      </Text>
      <Group gap="md" align="flex-end" wrap="wrap">
        <NativeSelect
          label="Firms"
          w={160}
          data-testid="unit-values-role"
          value={role}
          onChange={(e) => void setRole(e.currentTarget.value === 'exporter' ? 'exporter' : 'importer')}
          data={[
            { value: 'importer', label: 'Importers' },
            { value: 'exporter', label: 'Exporters' },
          ]}
        />
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void load();
          }}
        >
          <TextInput
            label="HS code starts with"
            w={180}
            data-testid="unit-values-hs"
            value={hs}
            onChange={(e) => setHs(e.currentTarget.value)}
            placeholder="all (Enter applies)"
          />
        </form>
        <Button
          variant="default"
          data-testid="unit-values-xlsx"
          disabled={!value}
          onClick={() => void exportXlsx()}
        >
          Export to Excel
        </Button>
      </Group>
      {error && <ErrorMessage error={error} testId="unit-values-error" />}
      {value && (
        <Text fz="sm" data-testid="unit-values-summary">
          {n(value.flagged)} of {n(value.groups)} groups flagged · {n(value.shipmentsUsed)} of{' '}
          {n(value.shipments)} shipments have a value and a weight
          {value.groups > shown.length
            ? ` · the ${n(shown.length)} furthest from their HS median are listed; Export to Excel has every group`
            : ''}
        </Text>
      )}
      {value && (
        <Table striped highlightOnHover withTableBorder fz="sm" data-testid="unit-values-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>HS code</Table.Th>
              <Table.Th>{role === 'importer' ? 'Importer' : 'Exporter'}</Table.Th>
              <Table.Th>{role === 'importer' ? 'From' : 'To'}</Table.Th>
              <Table.Th ta="right">Shipments</Table.Th>
              <Table.Th ta="right">USD per kg</Table.Th>
              <Table.Th ta="right">HS median</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((r, i) => (
              <Table.Tr
                key={`${r.hs}|${r.firm}|${r.country}`}
                style={{ cursor: 'pointer' }}
                tabIndex={0}
                onClick={() => drill(i)}
                onKeyDown={(e) => e.key === 'Enter' && drill(i)}
                data-testid="unit-values-row"
              >
                <Table.Td title={r.hsName}>{r.hs}</Table.Td>
                <Table.Td>{r.firmName || '—'}</Table.Td>
                <Table.Td>{r.country ?? '—'}</Table.Td>
                <Table.Td ta="right">{n(r.shipments)}</Table.Td>
                <Table.Td ta="right">{price(r.usdPerKg)}</Table.Td>
                <Table.Td ta="right">{price(r.hsMedian)}</Table.Td>
                <Table.Td>
                  {r.flag && (
                    <Badge size="sm" variant="light" color={r.flag === 'low' ? 'orange' : 'grape'}>
                      {r.flag === 'low' ? 'Low' : 'High'}
                    </Badge>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

import { Alert, Button, Group, NativeSelect, Stack, Table, Text } from '@mantine/core';
import { ErrorMessage } from '../../components/error-message';
import { selectDiffHint, useAnalysisStore } from './analysis-store';
import { num } from './format';
import { diffTable } from './table-export';

/** New, lost and kept firms between the chosen dataset and a newer one. */
export function DiffPanel() {
  const { exportTable, runDiff, setDiffOptions } = useAnalysisStore.getState();
  const datasets = useAnalysisStore((s) => s.datasets.value) ?? [];
  const datasetId = useAnalysisStore((s) => s.datasetId);
  const diff = useAnalysisStore((s) => s.diff);
  const hint = useAnalysisStore(selectDiffHint);
  const others = datasets.filter((d) => d.id !== datasetId);
  const nameOf = (id: string | null) => datasets.find((d) => d.id === id)?.name ?? '';
  return (
    <Stack gap="sm" component="section" data-testid="analysis-diff">
      <Text c="dimmed" fz="sm">
        Which firms are new, lost or kept between the chosen dataset (before) and another one (after).
      </Text>
      <Group gap="md" align="flex-end" wrap="wrap">
        <NativeSelect
          label="Compare with"
          w={320}
          data-testid="analysis-diff-compare"
          value={diff.compareId ?? ''}
          onChange={(e) => setDiffOptions({ compareId: e.currentTarget.value || null })}
          data={[
            { value: '', label: '(choose a newer dataset)' },
            ...others.map((d) => ({ value: d.id, label: d.name })),
          ]}
        />
        <NativeSelect
          label="Role"
          w={160}
          data-testid="analysis-diff-role"
          value={diff.role}
          onChange={(e) =>
            setDiffOptions({ role: e.currentTarget.value === 'exporter' ? 'exporter' : 'importer' })
          }
          data={[
            { value: 'importer', label: 'Importers' },
            { value: 'exporter', label: 'Exporters' },
          ]}
        />
        <Button
          data-testid="analysis-diff-run"
          disabled={!diff.compareId}
          loading={diff.loading}
          onClick={() => void runDiff()}
        >
          Compare
        </Button>
        <Button
          variant="default"
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
        </Button>
      </Group>
      {hint && (
        <Text fz="sm" c="dimmed" data-testid="analysis-diff-hint">
          {hint}
        </Text>
      )}
      {diff.error && <ErrorMessage error={diff.error} testId="analysis-diff-error" />}
      {diff.value && (
        <>
          {diff.value.warnings.map((w) => (
            <Alert key={w} color="yellow" variant="light" data-testid="analysis-diff-warning">
              {w}
            </Alert>
          ))}
          <Text data-testid="analysis-diff-counts">
            {diff.value.counts.new} new · {diff.value.counts.lost} lost · {diff.value.counts.kept} in both
          </Text>
          <div className="analysis__table-wrap">
            <Table className="analysis__table" data-testid="analysis-diff-table">
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
            </Table>
          </div>
        </>
      )}
    </Stack>
  );
}

import { Button, Drawer, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import type { SummaryRow } from '@shared/analysis/analysis-contract';
import { ErrorMessage } from '../../components/error-message';
import { chosenDataset, useAnalysisStore } from './analysis-store';
import { monthName } from '@shared/fields';
import { count, num, pct } from './format';
import { summaryTable } from './table-export';

/**
 * A firm's profile in the chosen dataset (its partners, HS mix and monthly volume) in a drawer over the
 * tab the analyst came from: Escape or Close puts them back where they were, focus included.
 */
export function ProfileDrawer() {
  const { closeProfile, drillDown } = useAnalysisStore.getState();
  const profile = useAnalysisStore((s) => s.profile);
  const p = profile.value;
  const opened = p !== null || profile.loading || profile.error !== null;
  return (
    <Drawer
      opened={opened}
      onClose={closeProfile}
      position="right"
      size="xl"
      title={
        <Title order={2} component="span">
          {p ? `${p.name} (${p.countryCode})` : 'Firm profile'}
        </Title>
      }
      closeButtonProps={{ 'aria-label': 'Close the profile' }}
    >
      <Stack gap="md" data-testid="analysis-profile">
        {profile.loading && <Loader size="sm" aria-label="Loading the profile" />}
        {profile.error && <ErrorMessage error={profile.error} testId="analysis-profile-error" />}
        {p && (
          <>
            <Text data-testid="analysis-profile-summary">
              As importer: {count(p.asImporter.shipments, 'shipment')}, USD FOB {num(p.asImporter.usdFob, 2)}{' '}
              · As exporter: {count(p.asExporter.shipments, 'shipment')}, USD FOB{' '}
              {num(p.asExporter.usdFob, 2)} · First {p.firstShipment ?? '—'}, last {p.lastShipment ?? '—'}
            </Text>
            {p.firmId !== null && p.spellings.length > 1 && (
              <Text c="dimmed" data-testid="analysis-profile-spellings">
                Written {count(p.spellings.length, 'way')}: {p.spellings.join(' · ')}
              </Text>
            )}
            {p.drillAll && (
              <Group>
                <Button
                  data-testid="analysis-profile-all-rows"
                  title="Every shipment of this firm, under any of its spellings, in either role"
                  onClick={() => p.drillAll && drillDown({ drill: p.drillAll })}
                >
                  Open all its shipments
                </Button>
              </Group>
            )}
            <ProfileList
              testId="analysis-profile-partners"
              title="Partners"
              firm={p.name}
              rows={p.partners}
            />
            <ProfileList
              testId="analysis-profile-hs"
              title="HS mix (headings)"
              firm={p.name}
              rows={p.hsMix}
            />
            <ProfileList
              testId="analysis-profile-months"
              title="Monthly volume"
              firm={p.name}
              rows={p.monthly}
              months
            />
          </>
        )}
      </Stack>
    </Drawer>
  );
}

function ProfileList({
  title,
  firm,
  rows,
  testId,
  months = false,
}: {
  title: string;
  firm: string;
  rows: SummaryRow[];
  testId: string;
  /** The rows are months: named as analysts write them ("Dec 2025"). */
  months?: boolean;
}) {
  const { drillDown, exportTable } = useAnalysisStore.getState();
  const datasetName = useAnalysisStore((s) => chosenDataset(s)?.name);
  return (
    <Stack gap="xs" data-testid={testId}>
      <Group justify="space-between" wrap="nowrap">
        <Title order={3}>{title}</Title>
        <Button
          variant="default"
          size="xs"
          data-testid={`${testId}-xlsx`}
          // The firm is in the title so the profiles of two firms do not save over each other.
          onClick={() =>
            void exportTable(summaryTable(`${title} ${firm}`.slice(0, 100), rows, { datasetName }))
          }
        >
          Excel
        </Button>
      </Group>
      <div className="analysis__table-wrap">
        <Table className="analysis__table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Shipments</th>
              <th>USD FOB</th>
              <th>Share (Shipments)</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => {
              const name = months && r.key !== null ? monthName(r.key) : r.label;
              return (
                <tr
                  key={`${r.key ?? ''}-${r.detail ?? ''}-${i}`}
                  data-testid={`${testId}-${i}`}
                  onClick={() => drillDown(r)}
                  className={r.drill ? 'analysis__row--drill' : undefined}
                >
                  <td className="analysis__name" title={r.detail ? `${name} ${r.detail}` : name}>
                    {name}
                    {r.detail ? <span className="analysis__detail"> {r.detail}</span> : null}
                  </td>
                  <td>{num(r.shipments)}</td>
                  <td>{num(r.usdFob, 2)}</td>
                  <td>{pct(r.shares.shipments)}</td>
                </tr>
              );
            })}
          </tbody>
        </Table>
      </div>
    </Stack>
  );
}

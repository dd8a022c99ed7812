import {
  ActionIcon,
  Button,
  EmptyState,
  Group,
  Loader,
  NativeSelect,
  ScrollArea,
  SegmentedControl,
  Stack,
  Tabs,
  Text,
  Tooltip,
} from '@mantine/core';
import { IconChartBar, IconInfoCircle, IconSearch } from '@tabler/icons-react';
import { useEffect } from 'react';
import { MEASURES, type FirmGrouping, type Measure } from '@shared/analysis/analysis-contract';
import { ChoiceField } from '../../components/choice-field';
import { ErrorMessage } from '../../components/error-message';
import { Page, PageHeader } from '../../components/page';
import { useSessionStore } from '../../session';
import {
  ANALYSIS_TABS,
  TAB_SUMMARIES,
  chosenDataset,
  chosenDatasetIsEmpty,
  isAnalysisTab,
  summariesComputing,
  useAnalysisStore,
  type AnalysisTab,
} from './analysis-store';
import { MEASURE_LABELS } from './chart-options';
import { DiffPanel } from './diff-panel';
import { count } from './format';
import { ProfileDrawer } from './profile-panel';
import { SummarySection } from './summary-section';
import { UnitValuesPanel } from './unit-values-panel';
import './analysis.css';

const TAB_LABELS: Record<AnalysisTab, string> = {
  importers: 'Importers',
  exporters: 'Exporters',
  months: 'Monthly trend',
  hs: 'HS breakdown',
  flows: 'Country flows',
  ports: 'Ports',
  unitValues: 'Unit values',
  compare: 'Compare datasets',
};

const FIGURES_NOTE =
  'Resolved counts every spelling of a firm as one firm; as written, one firm per firm code. Sums count ' +
  'only usable numbers: fillers such as “-” or “N/A” are left out and the figure is marked *. Gross ' +
  'weight is converted to kg from KG, G, T/MT and LB; other or blank units are left out.';

const FIRM_GROUPINGS: { value: FirmGrouping; label: string }[] = [
  { value: 'asWritten', label: 'As written' },
  { value: 'resolved', label: 'Resolved' },
];

/**
 * Summaries, charts, firm profiles and snapshot diffs of one shipment dataset of the library. One
 * summary per tab, so each chart and table has the window to itself (the flows chart stays readable
 * at 1024×700) instead of seven sections on one long page.
 */
export function AnalysisPage() {
  const { selectDataset, setMeasure, setFirms, setTab } = useAnalysisStore.getState();
  const datasets = useAnalysisStore((s) => s.datasets);
  const datasetId = useAnalysisStore((s) => s.datasetId);
  const chosenRows = useAnalysisStore((s) => chosenDataset(s)?.storedRows);
  const measure = useAnalysisStore((s) => s.measure);
  const firms = useAnalysisStore((s) => s.firms);
  const tab = useAnalysisStore((s) => s.tab);
  const computing = useAnalysisStore(summariesComputing);
  const exportError = useAnalysisStore((s) => s.exportError);
  const empty = useAnalysisStore(chosenDatasetIsEmpty);
  useEffect(() => {
    void useAnalysisStore.getState().loadDatasets();
  }, []);
  const list = datasets.value ?? [];
  const ready = datasetId !== null && !empty;
  return (
    <Page testId="analysis-page" layout="fill" data-computing={computing}>
      <PageHeader
        title="Analysis"
        description={
          chosenRows === undefined
            ? 'Summaries and charts of a shipment dataset of the library'
            : `${count(chosenRows, 'shipment')} in the chosen dataset · a row or a bar opens its shipments`
        }
      />
      <Group gap="md" align="flex-end" wrap="wrap">
        <NativeSelect
          label="Dataset"
          data-testid="analysis-dataset"
          w={300}
          value={datasetId ?? ''}
          onChange={(e) => void selectDataset(e.currentTarget.value)}
          disabled={list.length === 0}
          data={list.map((d) => ({ value: d.id, label: `${d.name} (${count(d.storedRows, 'row')})` }))}
        />
        <NativeSelect
          label="Measure"
          data-testid="analysis-measure"
          w={160}
          value={measure}
          onChange={(e) => void setMeasure(e.currentTarget.value as Measure)}
          data={MEASURES.map((m) => ({ value: m, label: MEASURE_LABELS[m] }))}
        />
        <ChoiceField
          labelId="analysis-firms-label"
          label={
            <Group gap={4} wrap="nowrap" component="span">
              Firms
              <Tooltip label={FIGURES_NOTE} multiline w={340} withArrow>
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  size="xs"
                  aria-label="How firms and figures are counted"
                  data-testid="analysis-figures-note"
                >
                  <IconInfoCircle size={14} />
                </ActionIcon>
              </Tooltip>
            </Group>
          }
        >
          <SegmentedControl
            data-testid="analysis-firms"
            aria-labelledby="analysis-firms-label"
            value={firms}
            onChange={(v) => void setFirms(v as FirmGrouping)}
            data={FIRM_GROUPINGS}
          />
        </ChoiceField>
      </Group>
      {datasets.loading && !datasets.value && (
        // The first read of the Library: said in words, where the summaries will be, not a blank page.
        <Group gap="xs" data-testid="analysis-datasets-loading">
          <Loader size="sm" />
          <Text c="dimmed">Loading the Library's datasets…</Text>
        </Group>
      )}
      {datasets.error && <ErrorMessage error={datasets.error} testId="analysis-datasets-error" />}
      {exportError && <ErrorMessage error={exportError} testId="analysis-export-error" />}
      {datasets.value && list.length === 0 && (
        <EmptyState
          pt="xl"
          data-testid="analysis-empty"
          icon={<IconChartBar size={24} stroke={1.6} />}
          withIndicatorBackground
          title="Nothing to analyse yet"
          description="Analysis summarises a shipments dataset of the Library: run a shipment search (it is kept there), or import a file in the Library."
        >
          <EmptyState.Actions>
            <Button
              variant="default"
              leftSection={<IconSearch size={16} stroke={1.6} />}
              data-testid="analysis-go-search"
              onClick={() => useSessionStore.getState().navigate('search')}
            >
              Search shipments
            </Button>
          </EmptyState.Actions>
        </EmptyState>
      )}
      {datasetId && empty && (
        <Text c="dimmed" data-testid="analysis-dataset-empty">
          This dataset has no shipments to analyse. Choose another dataset, or run a search that finds
          shipments.
        </Text>
      )}
      {ready && (
        <Tabs
          value={tab}
          onChange={(v) => isAnalysisTab(v) && setTab(v)}
          keepMounted={false}
          flex={1}
          mih={0}
          display="flex"
          style={{ flexDirection: 'column' }}
          data-testid="analysis-tabs"
        >
          <Tabs.List>
            {ANALYSIS_TABS.map((t) => (
              <Tabs.Tab key={t} value={t} data-testid={`analysis-tab-${t}`}>
                {TAB_LABELS[t]}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {ANALYSIS_TABS.map((t) => (
            <Tabs.Panel key={t} value={t} flex={1} mih={0} pt="md">
              <ScrollArea h="100%" type="auto" offsetScrollbars>
                <Stack gap="xl">
                  {t === 'compare' ? (
                    <DiffPanel />
                  ) : t === 'unitValues' ? (
                    <UnitValuesPanel />
                  ) : (
                    TAB_SUMMARIES[t].map((k) => <SummarySection key={k} kind={k} />)
                  )}
                </Stack>
              </ScrollArea>
            </Tabs.Panel>
          ))}
        </Tabs>
      )}
      <ProfileDrawer />
    </Page>
  );
}

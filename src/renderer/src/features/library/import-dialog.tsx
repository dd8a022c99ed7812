import { memo, useMemo, useState, type CSSProperties } from 'react';
import {
  Alert,
  Box,
  Button,
  Combobox,
  Group,
  InputBase,
  Loader,
  Modal,
  NumberInput,
  Progress,
  ScrollArea,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { IconAlertTriangle, IconCheck } from '@tabler/icons-react';
import { fieldDefsOf, type DatasetKind } from '@shared/fields';
import type { ImportPreviewView, UnnamedColumnFound } from '@shared/library/import-contract';
import { MAX_NAME_LENGTH } from '@shared/library/dataset-fields';
import { ChoiceField } from '../../components/choice-field';
import { ErrorMessage } from '../../components/error-message';
import { useEnterSubmits } from '../../components/use-enter-submits';
import { useRowsInSteps } from '../../components/use-rows-in-steps';
import { dateOrderMatters, decimalsMatter, planProblem, useImportStore } from './import-store';

const fmt = (n: number) => n.toLocaleString('en-US');
/** The value of the field picker for "no field": the column is kept as an extra column. */
const EXTRA = '';
/** The value of the field picker for a column not imported at all (no field has a space in its name). */
const LEAVE_OUT = 'leave out';

/** The fields of a kind as the picker lists them: the grid's titles after "extra column" and "leave out". */
function useFieldOptions(kind: DatasetKind) {
  return useMemo(
    () => [
      { value: EXTRA, label: 'Extra column (kept under its header)' },
      { value: LEAVE_OUT, label: 'Leave out (not imported)' },
      ...fieldDefsOf(kind).map((d) => ({ value: d.field, label: d.title })),
    ],
    [kind],
  );
}

function FileChoices({ p }: { p: ImportPreviewView }) {
  const checking = useImportStore((s) => s.checking);
  const { setKind, setSheet, setHeaderRow } = useImportStore.getState();
  return (
    <Group gap="md" align="flex-start" wrap="wrap">
      {p.sheets.length > 1 && (
        <Select
          label="Sheet"
          w={200}
          data-testid="import-sheet"
          allowDeselect={false}
          disabled={checking}
          value={String(p.sheet)}
          data={p.sheets.map((sh, i) => ({
            value: String(i),
            label: `${sh.name}${sh.hidden ? ' (hidden)' : ''}${sh.rows !== null ? ` · ${fmt(sh.rows)} rows` : ''}`,
          }))}
          onChange={(v) => v !== null && setSheet(Number(v))}
        />
      )}
      {p.format !== 'parquet' && p.format !== 'json' && (
        <NumberInput
          label="Header row"
          title="The row holding the column names; rows above it are skipped"
          w={110}
          min={1}
          // Grouped as every number the analyst reads is: a report's table may start at row 1,250.
          thousandSeparator=","
          data-testid="import-header-row"
          disabled={checking}
          value={p.headerRow}
          onChange={(v) => typeof v === 'number' && setHeaderRow(v)}
        />
      )}
      <ChoiceField label="Records">
        <SegmentedControl
          data-testid="import-kind"
          aria-label="Records"
          disabled={checking}
          value={p.kind}
          data={[
            { value: 'shipments', label: 'Shipments' },
            { value: 'firms', label: 'Firms' },
          ]}
          onChange={(v) => setKind(v === 'firms' ? 'firms' : 'shipments')}
        />
      </ChoiceField>
    </Group>
  );
}

/**
 * Decimal separator and day order: each asked only where it is in question (a number field read from
 * text; a date field read from text writing day and month as numbers, not ISO dates).
 */
function LocaleChoices({ p }: { p: ImportPreviewView }) {
  const locale = useImportStore((s) => s.locale);
  const decimals = useImportStore(decimalsMatter);
  const dates = useImportStore(dateOrderMatters);
  const checking = useImportStore((s) => s.checking);
  const setLocale = useImportStore((s) => s.setLocale);
  if (!(decimals || dates) || !locale) return null;
  return (
    <Group gap="md" align="flex-start" wrap="wrap" data-testid="import-locale">
      {decimals && (
        <ChoiceField
          label="Numbers are written"
          description={p.localeProof.decimal ? `The file has “${p.localeProof.decimal}”` : undefined}
        >
          <SegmentedControl
            data-testid="import-decimal"
            aria-label="Numbers are written"
            disabled={checking}
            value={locale.decimal}
            data={[
              { value: '.', label: '1,234.56' },
              { value: ',', label: '1.234,56' },
            ]}
            onChange={(v) => setLocale({ decimal: v === ',' ? ',' : '.' })}
          />
        </ChoiceField>
      )}
      {dates && (
        <ChoiceField
          label="Dates are written"
          description={
            p.localeProof.dates
              ? `The file has “${p.localeProof.dates}”`
              : p.localeProof.dateFormat
                ? `Its date cells show “${p.localeProof.dateFormat}”`
                : undefined
          }
        >
          <SegmentedControl
            data-testid="import-dates"
            aria-label="Dates are written"
            disabled={checking}
            value={locale.dates}
            data={[
              { value: 'dmy', label: 'Day first' },
              { value: 'mdy', label: 'Month first' },
            ]}
            onChange={(v) => setLocale({ dates: v === 'mdy' ? 'mdy' : 'dmy' })}
          />
        </ChoiceField>
      )}
    </Group>
  );
}

/** One row per column of the file: its header, the field it becomes, its first values as they will be stored. */
type FieldOption = { value: string; label: string };

/**
 * The field a column becomes. A file can have 100 columns: a searchable Select for each (its combobox,
 * its popover placed on mount) took over half a second of the window's thread to show the mapping.
 * Each row shows a plain button-like input with the field's title; the one the analyst focuses or
 * clicks becomes the searchable Select (open at once when clicked), and turns back when it loses the
 * focus. Each row reads only its own column's field, so a choice re-renders that row alone.
 */
const FieldChooser = memo(function FieldChooser({
  index,
  header,
  options,
}: {
  index: number;
  header: string;
  options: readonly FieldOption[];
}) {
  const field = useImportStore((s) => s.mapping[index] ?? null);
  const leftOut = useImportStore((s) => s.leftOut.includes(index));
  const setField = useImportStore((s) => s.setField);
  const leaveOut = useImportStore((s) => s.leaveOut);
  const [active, setActive] = useState<'closed' | 'open' | null>(null);
  const value = leftOut ? LEAVE_OUT : (field ?? EXTRA);
  const label = `Field for the column ${header}`;
  const testId = `import-field-${index}`;
  if (active === null) {
    return (
      <InputBase
        component="button"
        type="button"
        size="xs"
        pointer
        aria-label={label}
        aria-haspopup="listbox"
        data-testid={testId}
        data-field={field ?? ''}
        data-left-out={leftOut}
        rightSection={<Combobox.Chevron size="xs" />}
        rightSectionPointerEvents="none"
        onMouseDown={(e) => {
          e.preventDefault();
          setActive('open');
        }}
        onFocus={() => setActive('closed')}
        styles={{
          input: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', textAlign: 'left' },
        }}
      >
        {options.find((o) => o.value === value)?.label ?? value}
      </InputBase>
    );
  }
  return (
    <Select
      size="xs"
      searchable
      autoFocus
      defaultDropdownOpened={active === 'open'}
      allowDeselect={false}
      aria-label={label}
      data-testid={testId}
      data-field={field ?? ''}
      data-left-out={leftOut}
      value={value}
      data={options as FieldOption[]}
      comboboxProps={{ withinPortal: true }}
      onChange={(v) =>
        v === LEAVE_OUT ? leaveOut(index) : setField(index, v === null || v === EXTRA ? null : v)
      }
      onBlur={() => setActive(null)}
    />
  );
});

/**
 * Columns with no name in the header row that the preview did not list (nothing in its rows, or past
 * the header row's width) but the whole-file check found values in, by position: listed once found.
 */
function useFoundColumns(p: ImportPreviewView): Map<number, UnnamedColumnFound> {
  const found = useImportStore((s) => s.wholeFile?.view?.unnamedFound);
  return useMemo(
    () =>
      new Map(
        (found ?? [])
          .filter((f) => !p.columns[f.index] || p.columns[f.index]!.empty === true)
          .map((f) => [f.index, f]),
      ),
    [found, p.columns],
  );
}

const SAMPLE_STYLE: CSSProperties = {
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
  maxWidth: 320,
};
/** Where a column found further down has its values: said whole, on two lines if need be. */
const FOUND_STYLE: CSSProperties = { maxWidth: 320, overflowWrap: 'anywhere' };

/** Where the first value of a column found further down is, in place of the first values it lacks. */
function foundSamples(f: UnnamedColumnFound): string {
  return `None in the first rows; ${f.count === 1 ? '1 value' : `${fmt(f.count)} values`} further down, the first in ${f.at}: “${f.example}”`;
}

/** The mapping's rows drawn with the dialog: more than its scrolled list shows. The rest come right after. */
const FIRST_MAPPING_ROWS = 24;

function MappingTable({ p }: { p: ImportPreviewView }) {
  const options = useFieldOptions(p.kind);
  const found = useFoundColumns(p);
  const listed = p.columns.filter((c) => !c.empty || found.has(c.index));
  // Found past the header row's width: no column of the plan, so kept as an extra column as it is.
  const beyond = [...found.values()].filter((f) => f.index >= p.columns.length);
  // A choice in the mapping brings a new preview of the same columns: every row stays where it is.
  const columnsOf = `${p.fileName}\n${p.sheet}\n${p.headerRow}`;
  const drawn = useRowsInSteps(columnsOf, listed.length + beyond.length, FIRST_MAPPING_ROWS);
  return (
    <Table fz="sm" striped stickyHeader data-testid="import-mapping" verticalSpacing={4}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th w="24%">Column in the file</Table.Th>
          <Table.Th w="32%">Imported as</Table.Th>
          <Table.Th>First values</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {listed.slice(0, drawn).map((c) => {
          const later = found.get(c.index);
          const samples = later ? foundSamples(later) : c.samples.map((v) => v || '—').join(' · ');
          return (
            <Table.Tr
              key={c.index}
              data-testid={`import-column-${c.index}`}
              data-header={c.header}
              data-found-later={later !== undefined}
            >
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{c.header}</Table.Td>
              <Table.Td>
                <FieldChooser index={c.index} header={c.header} options={options} />
              </Table.Td>
              <Table.Td>
                <Text
                  fz="xs"
                  c={later ? undefined : 'dimmed'}
                  data-testid={`import-samples-${c.index}`}
                  style={later ? FOUND_STYLE : SAMPLE_STYLE}
                  title={later ? samples : c.samples.join(' · ')}
                >
                  {samples}
                </Text>
              </Table.Td>
            </Table.Tr>
          );
        })}
        {beyond.slice(0, Math.max(0, drawn - listed.length)).map((f) => (
          <Table.Tr
            key={f.index}
            data-testid={`import-column-${f.index}`}
            data-header={f.header}
            data-found-later
          >
            <Table.Td style={{ overflowWrap: 'anywhere' }}>{f.header}</Table.Td>
            <Table.Td>
              <Text fz="sm" title="Past the header row's last column: kept under this name">
                {options[0]!.label}
              </Text>
            </Table.Td>
            <Table.Td>
              <Text
                fz="xs"
                data-testid={`import-samples-${f.index}`}
                style={FOUND_STYLE}
                title={foundSamples(f)}
              >
                {foundSamples(f)}
              </Text>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** Where the whole-file check stands, in one line: how far it got, that it is done, or why it failed. */
function WholeFileStatus() {
  const whole = useImportStore((s) => s.wholeFile);
  if (!whole) return null;
  const v = whole.view;
  const state = whole.error ? 'failed' : v?.done ? 'done' : 'checking';
  const total = v?.rowsTotal ?? null;
  const pct = v && total ? Math.min(100, (v.rowsChecked / Math.max(1, total)) * 100) : null;
  return (
    <Group
      gap="sm"
      wrap="nowrap"
      data-testid="import-check"
      data-state={state}
      data-rows-checked={v?.rowsChecked ?? 0}
    >
      {state === 'checking' && <Loader size={14} />}
      <Text fz="sm" c={state === 'failed' ? 'orange' : 'dimmed'} data-testid="import-check-status">
        {state === 'failed'
          ? `The whole file could not be checked: ${whole.error?.message ?? ''}`
          : state === 'done'
            ? `Whole file checked: ${fmt(v?.rowsChecked ?? 0)} ${v?.rowsChecked === 1 ? 'row' : 'rows'}.`
            : v
              ? `Checking the whole file: ${fmt(v.rowsChecked)}${total !== null ? ` of ${v.totalIsEstimate ? 'about ' : ''}${fmt(total)}` : ''} rows checked… You can import without waiting.`
              : 'Checking the whole file… You can import without waiting.'}
      </Text>
      {state === 'checking' && (
        <Progress
          w={120}
          size="sm"
          value={pct ?? 100}
          animated={pct === null}
          striped={pct === null}
          aria-label="Whole file checked"
        />
      )}
    </Group>
  );
}

/**
 * What would not import as it is, with the rows it is in; or that all is well. Counted over the whole
 * file once its check has read past the preview's rows, over the preview's rows before.
 */
function Issues({ p }: { p: ImportPreviewView }) {
  const whole = useImportStore((s) => s.wholeFile);
  const v = whole?.view ?? null;
  const wide = v !== null && (v.done || v.rowsChecked >= p.rowsChecked);
  const issues = wide ? v.issues : p.issues;
  const blankRows = wide ? v.blankRows : p.blankRows;
  const rows = wide ? v.rowsChecked : p.rowsChecked;
  const scope = wide && v.done ? `all ${fmt(rows)} rows` : `the first ${fmt(rows)} rows`;
  const blank =
    blankRows > 0 ? ` ${fmt(blankRows)} blank ${blankRows === 1 ? 'line is' : 'lines are'} skipped.` : '';
  // No rows at all: the reason Import is off says so; "all 0 rows import" would read as good news.
  if (issues.length === 0 && rows === 0) return null;
  if (issues.length === 0) {
    return (
      <Stack gap={4}>
        <Group
          gap={6}
          data-testid="import-issues"
          data-count={0}
          data-scope={wide && v.done ? 'file' : 'rows'}
        >
          <IconCheck size={16} stroke={1.6} color="var(--mantine-color-green-filled)" />
          <Text fz="sm" c="dimmed">
            {wide && v.done
              ? `All ${fmt(rows)} rows import as they are.`
              : `The first ${fmt(rows)} rows import as they are.`}
            {blank}
          </Text>
        </Group>
        <WholeFileStatus />
      </Stack>
    );
  }
  return (
    <Alert
      color="orange"
      p="xs"
      icon={<IconAlertTriangle size={16} />}
      title={`Values that will not import as they are (in ${scope})`}
      data-testid="import-issues"
      data-count={issues.length}
      data-scope={wide && v.done ? 'file' : 'rows'}
    >
      <Stack gap={4}>
        <ScrollArea.Autosize mah={140} type="auto" offsetScrollbars>
          <Stack gap={4}>
            {issues.map((w, i) => (
              <Text fz="sm" key={i} data-testid="import-issue" data-field={w.field} data-count={w.count}>
                {w.message}.{' '}
                {w.at && w.at.length > 0 && (
                  <Text span fz="sm" fw={500} data-testid="import-issue-rows">
                    {w.count > w.at.length
                      ? `Rows ${w.at.map((a) => a.replace(/^row /, '')).join(', ')} and ${fmt(w.count - w.at.length)} more.`
                      : `${w.at.length === 1 ? 'Row' : 'Rows'} ${w.at.map((a) => a.replace(/^row /, '')).join(', ')}.`}
                  </Text>
                )}
              </Text>
            ))}
          </Stack>
        </ScrollArea.Autosize>
        {blank && <Text fz="sm">{blank.trim()}</Text>}
        <WholeFileStatus />
      </Stack>
    </Alert>
  );
}

const MODAL_PADDING = 'var(--mb-padding, var(--mantine-spacing-md))';
const STICKY_FOOTER: CSSProperties = {
  position: 'sticky',
  bottom: `calc(-1 * ${MODAL_PADDING})`,
  marginBottom: `calc(-1 * ${MODAL_PADDING})`,
  paddingBottom: MODAL_PADDING,
  background: 'var(--mantine-color-body)',
  borderTop: '1px solid var(--mantine-color-default-border)',
  zIndex: 1,
};

/** What becomes of the columns not read as fields, in one sentence. */
function mappingSummary(extras: number, leftOut: number): string {
  const kept =
    extras > 0
      ? `${fmt(extras)} ${extras === 1 ? 'column is' : 'columns are'} kept as extra ${extras === 1 ? 'column' : 'columns'}: shown, filterable and exported with the dataset.`
      : '';
  const out = leftOut > 0 ? `${fmt(leftOut)} ${leftOut === 1 ? 'column is' : 'columns are'} left out.` : '';
  return [kept, out].filter(Boolean).join(' ') || 'Every column is read as a field.';
}

function Mapping({ p }: { p: ImportPreviewView }) {
  const name = useImportStore((s) => s.name);
  const error = useImportStore((s) => s.error);
  const problem = useImportStore(planProblem);
  const checking = useImportStore((s) => s.checking);
  const found = useFoundColumns(p);
  const listedExtras = useImportStore(
    (s) =>
      s.mapping.filter((f, c) => f === null && !s.leftOut.includes(c) && !s.preview?.columns[c]?.empty)
        .length,
  );
  // Columns found further down are kept as extra columns unless the analyst chose otherwise.
  const mapping = useImportStore((s) => s.mapping);
  const leftOutColumns = useImportStore((s) => s.leftOut);
  const extras =
    listedExtras +
    [...found.keys()].filter((c) => (mapping[c] ?? null) === null && !leftOutColumns.includes(c)).length;
  const leftOut = useImportStore((s) => s.leftOut.length);
  const { setName, confirm, cancel } = useImportStore.getState();
  const enter = useEnterSubmits();
  return (
    <Box
      component="form"
      {...enter}
      data-testid="import-form"
      data-checking={checking}
      onSubmit={(e) => {
        e.preventDefault();
        void confirm();
      }}
    >
      <Stack gap="md">
        {p.remembered && (
          <Text fz="sm" c="dimmed" data-testid="import-remembered">
            The mapping you chose for a file with these columns is filled in.
          </Text>
        )}
        {p.notices.map((n, i) => (
          <Alert key={i} color="orange" p="xs" data-testid="import-notice">
            {n}
          </Alert>
        ))}
        <Group gap="xl" align="flex-start" wrap="wrap">
          <FileChoices p={p} />
          <LocaleChoices p={p} />
        </Group>
        <ScrollArea.Autosize mah="30vh" type="auto" offsetScrollbars>
          <MappingTable p={p} />
        </ScrollArea.Autosize>
        <Issues p={p} />
        {error && <ErrorMessage error={error} testId="import-error" />}
        {/* Kept in view at the foot of the dialog, as Mantine keeps its header at the top: a long list of
            notes above never pushes Import off screen. It reaches down over the body's padding so that
            nothing scrolls past below it. */}
        <Stack gap="md" pt="sm" data-testid="import-footer" style={STICKY_FOOTER}>
          <Text fz="sm" c={problem ? 'red' : 'dimmed'} data-testid="import-reason">
            {problem ?? mappingSummary(extras, leftOut)}
          </Text>
          <Group gap="sm" align="flex-end" wrap="nowrap">
            <TextInput
              label="Dataset name"
              placeholder={`Imported ${p.kind} · ${p.fileName}`}
              flex={1}
              miw={0}
              maxLength={MAX_NAME_LENGTH}
              value={name}
              data-testid="import-name"
              onChange={(e) => setName(e.currentTarget.value)}
            />
            <Button variant="default" data-testid="import-cancel" onClick={cancel}>
              Cancel
            </Button>
            <Button
              type="submit"
              data-testid="import-confirm"
              disabled={Boolean(problem)}
              loading={checking}
              title={problem ?? 'Import the file with this mapping (Enter)'}
            >
              Import
            </Button>
          </Group>
        </Stack>
      </Stack>
    </Box>
  );
}

function Importing() {
  const progress = useImportStore((s) => s.progress);
  const cancelling = useImportStore((s) => s.cancelling);
  const cancel = useImportStore((s) => s.cancel);
  const done = progress?.done ?? 0;
  const total = progress?.total ?? null;
  const step = progress?.step ?? null;
  const pct = total ? Math.min(100, (done / total) * 100) : null;
  return (
    <Stack gap="sm" data-testid="import-progress" data-done={done} data-total={total ?? ''}>
      <Progress value={pct ?? 100} animated={pct === null} striped={pct === null} />
      {step && !cancelling && (
        <Text fz="sm" data-testid="import-step">
          {step.charAt(0).toUpperCase() + step.slice(1)}.
        </Text>
      )}
      <Group justify="space-between" wrap="nowrap">
        <Text fz="sm" c="dimmed">
          {cancelling
            ? 'Stopping… the library stays as it was.'
            : total
              ? `${fmt(done)} of about ${fmt(total)} rows stored`
              : `${fmt(done)} rows stored`}
        </Text>
        <Button variant="default" data-testid="import-stop" onClick={cancel} disabled={cancelling}>
          Cancel
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * The import dialog: a file from another tool is previewed and mapped before anything is stored
 * (Portolan's own exports go straight to the import); then its progress, with Cancel. Escape closes
 * it before the import and stops the import while it runs.
 */
export function ImportDialog() {
  const phase = useImportStore((s) => s.phase);
  const preview = useImportStore((s) => s.preview);
  const fileName = useImportStore((s) => s.file?.name ?? '');
  const cancel = useImportStore((s) => s.cancel);
  return (
    <Modal
      opened={phase !== 'closed'}
      onClose={cancel}
      size={phase === 'mapping' ? 'min(1100px, 94vw)' : 'md'}
      title={`Import ${fileName}`}
      data-testid="import-dialog"
      data-phase={phase}
      closeOnClickOutside={false}
    >
      {phase === 'reading' && (
        <Group gap="sm" data-testid="import-reading">
          <Loader size="sm" />
          <Text fz="sm">Reading the first rows…</Text>
        </Group>
      )}
      {phase === 'mapping' && preview && <Mapping p={preview} />}
      {phase === 'importing' && <Importing />}
    </Modal>
  );
}

import './workbench.css';
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { Alert, Badge, Button, Collapse, Group, Select, SimpleGrid, TextInput } from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { KEYWORD_FIELDS, MIN_KEYWORD_LENGTH, type KeywordField } from '@shared/spec';
import { CountryMultiSelect } from './country-multi-select';
import { DateRangeField } from './date-range-field';
import { fieldError } from './field-messages';
import { FirmTypeInput } from './firm-type-input';
import { HsCodePicker } from './hs-code-picker';
import { isClosedButtonList } from '../../components/use-enter-submits';
import { useSessionStore } from '../../session';
import { FIELD_LABELS, type FilterDraft, type Validation } from './filter-model';
import { filterStore, useFilter, type FilterStore } from './filter-store';

/** The fields under "More filters": less common, so the form's first rows stay short. */
const MORE_FIELDS = [
  'firm_filter',
  'search_type',
  'exporter_firm',
  'importer_firm',
  'brand_name',
  'arrival_port',
  'departure_port',
  'account_name',
] as const satisfies readonly (keyof FilterDraft)[];

const COMMON_KEYWORD: KeywordField = 'product_detail';
const MORE_KEYWORDS = KEYWORD_FIELDS.filter((k) => k !== COMMON_KEYWORD);

/** How many of the "More filters" fields hold something, for the toggle's badge. */
export function moreFiltersInUse(d: FilterDraft): number {
  return MORE_FIELDS.filter((k) => {
    const v = d[k];
    return Array.isArray(v) ? v.length > 0 : v.trim() !== '';
  }).length;
}

/**
 * Every filter field of the spec: the common ones first (countries, HS codes, dates, product), the
 * rest under "More filters". Messages come from the page's validation (it knows which call will run).
 * Enter in a field runs `onSubmit` (a picker with typed text takes its Enter for itself).
 */
export function FilterForm({
  validation,
  store = filterStore,
  onSubmit,
}: {
  validation: Validation;
  store?: FilterStore;
  onSubmit?: () => void;
}) {
  const draft = useFilter((s) => s.draft, store);
  const notice = useFilter((s) => s.notice, store);
  const refused = useFilter((s) => s.refused, store);
  const typed = useFilter((s) => s.typed, store);
  const moreOpen = useFilter((s) => s.moreOpen, store);
  const actions = store.getState();
  const msgs = validation.bySlot;
  const formRef = useRef<HTMLFormElement>(null);
  // Edit Filter (menu, Ctrl+L): the first field takes the focus once the form is on screen.
  const focusPending = useSessionStore((s) => s.filterFocusPending);
  useEffect(() => {
    if (focusPending && useSessionStore.getState().takeFilterFocus())
      formRef.current?.querySelector<HTMLElement>('input, select, textarea')?.focus();
  }, [focusPending]);
  // A message in a hidden field must not block the run unseen: "More filters" opens to show it.
  const hiddenTrouble = MORE_FIELDS.some((k) => msgs[k]?.length || refused[k as 'firm_filter']);
  const showMore = moreOpen || hiddenTrouble;
  // Once opened for a message, it stays open while the analyst fixes it (it would vanish mid-typing).
  useEffect(() => {
    if (hiddenTrouble && !moreOpen) store.getState().setMoreOpen(true);
  }, [hiddenTrouble, moreOpen, store]);
  const inUse = moreFiltersInUse(draft);

  // A closed list that opens like a button (Search type) takes Enter to open itself: Enter runs the
  // search from it as from any field, Space or ↓ open it, and Enter in the open list picks an option.
  const onKeyDownCapture = (e: KeyboardEvent<HTMLFormElement>) => {
    if (e.key !== 'Enter' || e.ctrlKey || e.metaKey || e.altKey || e.shiftKey) return;
    const target = e.target as HTMLElement;
    if (!isClosedButtonList(target)) return;
    e.preventDefault();
    e.stopPropagation();
    onSubmit?.();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLFormElement>) => {
    // Enter runs from any single-line field; Ctrl+Enter is the menu's Run Search (app/commands).
    if (e.key !== 'Enter' || e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.shiftKey) return;
    const target = e.target as HTMLElement;
    if (target.tagName !== 'INPUT') return;
    e.preventDefault();
    onSubmit?.();
  };

  const keyword = (k: KeywordField) => (
    <TextInput
      key={k}
      label={FIELD_LABELS[k]}
      value={draft[k]}
      placeholder={`at least ${MIN_KEYWORD_LENGTH} characters`}
      autoComplete="off"
      data-testid={`filter-${k}-input`}
      error={fieldError(k, msgs[k])}
      onChange={(e) => actions.setText(k, e.currentTarget.value)}
      onBlur={() => actions.touch(k)}
    />
  );
  return (
    <form
      ref={formRef}
      className="filter-form"
      data-testid="filter-form"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit?.();
      }}
      onKeyDownCapture={onKeyDownCapture}
      onKeyDown={onKeyDown}
    >
      {notice && (
        <Alert
          color="blue"
          mb="sm"
          className="filter-form-block"
          data-testid="filter-notice"
          role="status"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => actions.setNotice(null)}
        >
          {notice}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 2, md: 3 }} spacing="sm" verticalSpacing="xs" className="filter-form-rows">
        <CountryMultiSelect
          field="importer_countries"
          label={FIELD_LABELS.importer_countries}
          values={draft.importer_countries}
          onAdd={(c) => actions.addTag('importer_countries', c)}
          onRemove={(i) => actions.removeTag('importer_countries', i)}
          onBlur={() => actions.touch('importer_countries')}
          query={typed.importer_countries ?? ''}
          onQueryChange={(text) => actions.setTyped('importer_countries', text)}
          error={fieldError('importer_countries', msgs.importer_countries, refused.importer_countries)}
        />
        <CountryMultiSelect
          field="exporter_countries"
          label={FIELD_LABELS.exporter_countries}
          values={draft.exporter_countries}
          onAdd={(c) => actions.addTag('exporter_countries', c)}
          onRemove={(i) => actions.removeTag('exporter_countries', i)}
          onBlur={() => actions.touch('exporter_countries')}
          query={typed.exporter_countries ?? ''}
          onQueryChange={(text) => actions.setTyped('exporter_countries', text)}
          error={fieldError('exporter_countries', msgs.exporter_countries, refused.exporter_countries)}
        />
        <HsCodePicker
          values={draft.hs_codes}
          onAdd={(c) => actions.addTag('hs_codes', c)}
          onRemove={(i) => actions.removeTag('hs_codes', i)}
          onBlur={() => actions.touch('hs_codes')}
          query={typed.hs_codes ?? ''}
          onQueryChange={(text) => actions.setTyped('hs_codes', text)}
          error={fieldError('hs_codes', msgs.hs_codes, refused.hs_codes)}
        />
        <DateRangeField
          start={draft.start_date}
          end={draft.end_date}
          onChange={(f, v) => actions.setText(f, v)}
          onBlur={(f) => actions.touch(f)}
          startMessages={msgs.start_date}
          endMessages={msgs.end_date}
        />
        {keyword(COMMON_KEYWORD)}
      </SimpleGrid>
      <Group gap="xs" mt="xs" className="filter-form-block">
        <Button
          variant="subtle"
          size="compact-sm"
          data-testid="filter-more-toggle"
          aria-expanded={showMore}
          leftSection={
            showMore ? (
              <IconChevronDown size={14} stroke={1.6} />
            ) : (
              <IconChevronRight size={14} stroke={1.6} />
            )
          }
          rightSection={
            inUse > 0 ? (
              <Badge size="xs" circle data-testid="filter-more-count">
                {inUse}
              </Badge>
            ) : undefined
          }
          onClick={() => actions.setMoreOpen(!showMore)}
        >
          More filters
        </Button>
        <Button
          variant="subtle"
          size="compact-sm"
          color="gray"
          data-testid="filter-reset"
          onClick={() => actions.reset()}
        >
          Clear filter
        </Button>
      </Group>
      <Collapse expanded={showMore} keepMountedMode="display-none" data-testid="filter-more">
        <SimpleGrid
          cols={{ base: 2, lg: 4 }}
          spacing="sm"
          verticalSpacing="xs"
          pt="xs"
          className="filter-form-rows"
        >
          <FirmTypeInput
            values={draft.firm_filter}
            onAdd={(v) => actions.addTag('firm_filter', v)}
            onRemove={(i) => actions.removeTag('firm_filter', i)}
            error={fieldError('firm_filter', msgs.firm_filter)}
          />
          <Select
            label={FIELD_LABELS.search_type}
            data={[
              { value: '', label: 'Any' },
              { value: 'importer', label: 'Importer' },
              { value: 'exporter', label: 'Exporter' },
            ]}
            value={draft.search_type}
            allowDeselect={false}
            data-testid="filter-search_type-input"
            comboboxProps={{ withinPortal: false }}
            error={fieldError('search_type', msgs.search_type)}
            onChange={(v) => actions.setSearchType((v ?? '') as FilterDraft['search_type'])}
          />
          {MORE_KEYWORDS.map(keyword)}
          <TextInput
            label={FIELD_LABELS.account_name}
            value={draft.account_name}
            placeholder="the profile's account"
            autoComplete="off"
            data-testid="filter-account_name-input"
            error={fieldError('account_name', msgs.account_name)}
            onChange={(e) => actions.setText('account_name', e.currentTarget.value)}
          />
        </SimpleGrid>
      </Collapse>
    </form>
  );
}

import './workbench.css';
import { useEffect, useRef } from 'react';
import { KEYWORD_FIELDS, MIN_KEYWORD_LENGTH, type KeywordField } from '@shared/spec';
import { CountryMultiSelect } from './country-multi-select';
import { FieldMessages } from './field-messages';
import { FirmTypeInput } from './firm-type-input';
import { HsCodePicker } from './hs-code-picker';
import { useSessionStore } from '../../session';
import type { Validation } from './filter-model';
import { filterStore, useFilter, type FilterStore } from './filter-store';

const KEYWORD_LABELS: Record<KeywordField, string> = {
  product_detail: 'Product description',
  exporter_firm: 'Exporter firm name',
  importer_firm: 'Importer firm name',
  brand_name: 'Brand name',
  arrival_port: 'Port of arrival',
  departure_port: 'Port of departure',
};

/** Every filter field of the spec. Messages come from the page's validation (it knows which call will run). */
export function FilterForm({
  validation,
  store = filterStore,
}: {
  validation: Validation;
  store?: FilterStore;
}) {
  const draft = useFilter((s) => s.draft, store);
  const notice = useFilter((s) => s.notice, store);
  const refused = useFilter((s) => s.refused, store);
  const actions = store.getState();
  const msgs = validation.bySlot;
  const formRef = useRef<HTMLFormElement>(null);
  // Edit Filter (menu, Ctrl+L): the first field takes the focus once the form is on screen.
  const focusPending = useSessionStore((s) => s.filterFocusPending);
  useEffect(() => {
    if (focusPending && useSessionStore.getState().takeFilterFocus())
      formRef.current?.querySelector<HTMLElement>('input, select, textarea')?.focus();
  }, [focusPending]);
  return (
    <form
      ref={formRef}
      className="filter-form"
      data-testid="filter-form"
      onSubmit={(e) => e.preventDefault()}
      style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))', gap: 12 }}
    >
      {notice && (
        <div
          role="status"
          data-testid="filter-notice"
          style={{ gridColumn: '1 / -1', padding: 6, background: 'var(--notice-bg, #fff6d6)', color: '#333' }}
        >
          {notice}{' '}
          <button type="button" data-testid="filter-notice-dismiss" onClick={() => actions.setNotice(null)}>
            Dismiss
          </button>
        </div>
      )}
      <div>
        <CountryMultiSelect
          field="importer_countries"
          label="Importer countries"
          values={draft.importer_countries}
          onAdd={(c) => actions.addTag('importer_countries', c)}
          refused={refused.importer_countries}
          onRemove={(i) => actions.removeTag('importer_countries', i)}
          onBlur={() => actions.touch('importer_countries')}
        />
        <FieldMessages slot="importer_countries" messages={msgs.importer_countries} />
      </div>
      <div>
        <CountryMultiSelect
          field="exporter_countries"
          label="Exporter countries"
          values={draft.exporter_countries}
          onAdd={(c) => actions.addTag('exporter_countries', c)}
          refused={refused.exporter_countries}
          onRemove={(i) => actions.removeTag('exporter_countries', i)}
          onBlur={() => actions.touch('exporter_countries')}
        />
        <FieldMessages slot="exporter_countries" messages={msgs.exporter_countries} />
      </div>
      <div>
        <HsCodePicker
          values={draft.hs_codes}
          onAdd={(c) => actions.addTag('hs_codes', c)}
          refused={refused.hs_codes}
          onRemove={(i) => actions.removeTag('hs_codes', i)}
          onBlur={() => actions.touch('hs_codes')}
        />
        <FieldMessages slot="hs_codes" messages={msgs.hs_codes} />
      </div>
      <div className="filter-field">
        <span>Shipment dates</span>
        <div style={{ display: 'flex', gap: 6 }}>
          <label>
            From
            <input
              type="date"
              value={draft.start_date}
              data-testid="filter-start_date-input"
              onChange={(e) => actions.setText('start_date', e.target.value)}
            />
          </label>
          <label>
            To
            <input
              type="date"
              value={draft.end_date}
              min={draft.start_date || undefined}
              data-testid="filter-end_date-input"
              onChange={(e) => actions.setText('end_date', e.target.value)}
            />
          </label>
        </div>
        <FieldMessages slot="start_date" messages={msgs.start_date} />
        <FieldMessages slot="end_date" messages={msgs.end_date} />
      </div>
      <div>
        <FirmTypeInput
          values={draft.firm_filter}
          onAdd={(v) => actions.addTag('firm_filter', v)}
          onRemove={(i) => actions.removeTag('firm_filter', i)}
        />
        <FieldMessages slot="firm_filter" messages={msgs.firm_filter} />
      </div>
      <div className="filter-field">
        <label>
          Search type
          <select
            value={draft.search_type}
            data-testid="filter-search_type-input"
            onChange={(e) => actions.setSearchType(e.target.value as typeof draft.search_type)}
          >
            <option value="">(any)</option>
            <option value="importer">Importer</option>
            <option value="exporter">Exporter</option>
          </select>
        </label>
        <FieldMessages slot="search_type" messages={msgs.search_type} />
      </div>
      {KEYWORD_FIELDS.map((k) => (
        <div className="filter-field" key={k}>
          <label>
            {KEYWORD_LABELS[k]}
            <input
              type="text"
              value={draft[k]}
              placeholder={`at least ${MIN_KEYWORD_LENGTH} characters`}
              aria-invalid={Boolean(msgs[k]?.length)}
              data-testid={`filter-${k}-input`}
              onChange={(e) => actions.setText(k, e.target.value)}
              onBlur={() => actions.touch(k)}
            />
          </label>
          <FieldMessages slot={k} messages={msgs[k]} />
        </div>
      ))}
      <div className="filter-field">
        <label>
          Account name
          <input
            type="text"
            value={draft.account_name}
            placeholder="(the profile's account)"
            data-testid="filter-account_name-input"
            onChange={(e) => actions.setText('account_name', e.target.value)}
          />
        </label>
        <FieldMessages slot="account_name" messages={msgs.account_name} />
      </div>
      <div style={{ gridColumn: '1 / -1', display: 'flex', gap: 8, alignItems: 'center' }}>
        <button type="button" data-testid="filter-reset" onClick={() => actions.reset()}>
          Clear filter
        </button>
        <FieldMessages slot="form" messages={msgs.form} />
      </div>
    </form>
  );
}

import { useId, useMemo, useState } from 'react';
import { MAX_LIST_ITEMS } from '@shared/spec';
import { countryName, isKnownCountryCode, searchCountries } from './countries';
import { TagList } from './tag-list';

/** A searchable multi-select of ISO countries: type a name or a code, pick from the list. */
export function CountryMultiSelect(props: {
  field: 'importer_countries' | 'exporter_countries';
  label: string;
  values: string[];
  /** False when the store refused the code; the typed text then stays for correction. */
  onAdd: (code: string) => boolean;
  onRemove: (index: number) => void;
  onBlur: () => void;
  /** Why the last code was refused (not in the reference list, or the list is full). */
  refused?: string | undefined;
}) {
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const listId = useId();
  const options = useMemo(
    () => (open ? searchCountries(query, 40).filter((c) => !props.values.includes(c.code)) : []),
    [open, query, props.values],
  );
  const pick = (code: string) => {
    if (!props.onAdd(code)) return;
    setQuery('');
    setOpen(false);
  };
  return (
    <div className="filter-field" data-testid={`filter-${props.field}`}>
      <label>
        {props.label}{' '}
        <small>
          ({props.values.length}/{MAX_LIST_ITEMS})
        </small>
        <input
          type="text"
          role="combobox"
          aria-expanded={open}
          aria-controls={listId}
          placeholder="Country name or ISO code"
          value={query}
          data-testid={`filter-${props.field}-input`}
          onChange={(e) => {
            setQuery(e.target.value);
            setOpen(true);
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => {
            // Delay so a click on an option lands before the list closes.
            setTimeout(() => setOpen(false), 150);
            props.onBlur();
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              // A typed code ("de", "ALL") is taken as that code even when a name also contains it;
              // anything else takes the first match, and text matching nothing goes to the store to be refused.
              const typed = query.trim().toUpperCase();
              const first = options[0];
              if (typed && isKnownCountryCode(typed)) pick(typed);
              else if (first) pick(first.code);
              else if (typed) pick(typed);
            }
          }}
        />
      </label>
      {open && options.length > 0 && (
        <ul
          id={listId}
          role="listbox"
          className="options"
          data-testid={`filter-${props.field}-options`}
          style={{
            maxHeight: 180,
            overflowY: 'auto',
            margin: 0,
            padding: 0,
            listStyle: 'none',
            border: '1px solid var(--border, #999)',
          }}
        >
          {options.map((c) => (
            <li
              key={c.code}
              role="option"
              aria-selected={false}
              data-testid={`filter-${props.field}-option-${c.code}`}
              onMouseDown={(e) => {
                e.preventDefault();
                pick(c.code);
              }}
              style={{ cursor: 'pointer', padding: '2px 6px' }}
            >
              {c.name} <small>({c.code})</small>
            </li>
          ))}
        </ul>
      )}
      {props.refused && (
        <div
          role="alert"
          className="field-error"
          data-testid={`filter-${props.field}-refused`}
          style={{ color: 'var(--danger, #c0392b)', fontSize: 12 }}
        >
          {props.refused}
        </div>
      )}
      <TagList
        field={props.field}
        tags={props.values.map((v) => ({ value: v, label: countryName(v) }))}
        onRemove={props.onRemove}
      />
    </div>
  );
}

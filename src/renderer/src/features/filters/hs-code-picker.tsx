import { useEffect, useId, useMemo, useState } from 'react';
import { MAX_LIST_ITEMS } from '@shared/spec';
import { describeHs, loadHsIndex, searchHs, type HsIndex } from './hs-codes';
import { TagList } from './tag-list';

/** Hook: the HS nomenclature, loaded on first use of a picker. */
export function useHsIndex(): HsIndex | null {
  const [index, setIndex] = useState<HsIndex | null>(null);
  useEffect(() => {
    let live = true;
    void loadHsIndex().then((i) => live && setIndex(i));
    return () => {
      live = false;
    };
  }, []);
  return index;
}

/** HS codes as tags with their descriptions; search by code prefix or by description words. */
export function HsCodePicker(props: {
  values: string[];
  /** False when the store refused the code (the list is full); the typed text then stays. */
  onAdd: (code: string) => boolean;
  onRemove: (index: number) => void;
  onBlur: () => void;
  refused?: string | undefined;
}) {
  const index = useHsIndex();
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const listId = useId();
  const options = useMemo(() => (index && open ? searchHs(index, query, 60) : []), [index, open, query]);
  const pick = (code: string) => {
    if (!props.onAdd(code)) return;
    setQuery('');
    setOpen(false);
  };
  return (
    <div className="filter-field" data-testid="filter-hs_codes">
      <label>
        HS codes{' '}
        <small>
          ({props.values.length}/{MAX_LIST_ITEMS})
        </small>
        <input
          type="text"
          role="combobox"
          aria-expanded={open}
          aria-controls={listId}
          placeholder={index ? 'Code or description, e.g. steel' : 'Loading HS nomenclature…'}
          value={query}
          data-testid="filter-hs_codes-input"
          onChange={(e) => {
            setQuery(e.target.value);
            setOpen(true);
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => {
            setTimeout(() => setOpen(false), 150);
            props.onBlur();
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && query.trim()) {
              e.preventDefault();
              // Enter takes the typed text as a code when it looks like one; otherwise the first match.
              const typed = query.trim();
              const first = options[0];
              pick(/^\d+$/.test(typed) || !first ? typed : first.code);
            }
          }}
        />
      </label>
      {open && options.length > 0 && (
        <ul
          id={listId}
          role="listbox"
          data-testid="filter-hs_codes-options"
          style={{
            maxHeight: 220,
            overflowY: 'auto',
            margin: 0,
            padding: 0,
            listStyle: 'none',
            border: '1px solid var(--border, #999)',
          }}
        >
          {options.map((e) => (
            <li
              key={e.code}
              role="option"
              aria-selected={false}
              data-testid={`filter-hs_codes-option-${e.code}`}
              onMouseDown={(ev) => {
                ev.preventDefault();
                pick(e.code);
              }}
              style={{ cursor: 'pointer', padding: '2px 6px', paddingLeft: 6 + (e.level - 2) * 6 }}
            >
              <strong>{e.code}</strong> {e.description}
            </li>
          ))}
        </ul>
      )}
      {props.refused && (
        <div
          role="alert"
          className="field-error"
          data-testid="filter-hs_codes-refused"
          style={{ color: 'var(--danger, #c0392b)', fontSize: 12 }}
        >
          {props.refused}
        </div>
      )}
      <TagList
        field="hs_codes"
        tags={props.values.map((v) => {
          const d = index ? describeHs(index, v) : null;
          return {
            value: v,
            label: d ?? (index ? '(not in the HS nomenclature)' : ''),
            title: d ?? undefined,
          };
        })}
        onRemove={props.onRemove}
      />
    </div>
  );
}

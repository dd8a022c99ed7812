import type { ReactNode } from 'react';
import { useEffect, useState } from 'react';
import { describeHs, loadHsIndex, searchHs, type HsIndex } from './hs-codes';
import { PickerField } from './picker-field';

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
  query: string;
  onQueryChange: (text: string) => void;
  error?: ReactNode;
}) {
  const index = useHsIndex();
  return (
    <PickerField
      field="hs_codes"
      label="HS codes"
      placeholder={index ? 'Code or description, e.g. steel' : 'Loading HS nomenclature…'}
      values={props.values}
      tags={props.values.map((v) => {
        const d = index ? describeHs(index, v) : null;
        return {
          value: v,
          label: d ?? (index ? '(not in the HS nomenclature)' : ''),
          title: d ?? undefined,
        };
      })}
      options={(q) =>
        index
          ? searchHs(index, q, 60).map((e) => ({
              value: e.code,
              indent: e.level - 2,
              content: (
                <>
                  <strong>{e.code}</strong> {e.description}
                </>
              ),
            }))
          : []
      }
      // Typed digits are a code (highlighted when listed); a description takes its first match.
      defaultActive={(q, options) => {
        const typed = q.trim();
        return /^\d+$/.test(typed) ? options.findIndex((o) => o.value === typed) : options.length ? 0 : -1;
      }}
      // Text matching nothing goes to the store, whose validation says why it is not a code.
      enterUnhighlighted={(q, options) => {
        const typed = q.trim();
        return /^\d+$/.test(typed) || options.length === 0 ? typed : null;
      }}
      onAdd={props.onAdd}
      onRemove={props.onRemove}
      onBlur={props.onBlur}
      query={props.query}
      onQueryChange={props.onQueryChange}
      error={props.error}
    />
  );
}

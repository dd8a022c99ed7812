import type { ReactNode } from 'react';
import { Text } from '@mantine/core';
import { countryName, isKnownCountryCode, searchCountryMatches } from './countries';
import { PickerField } from './picker-field';

/** A searchable multi-select of ISO countries: type a name, an alias (UK, USA, Holland) or a code. */
export function CountryMultiSelect(props: {
  field: 'importer_countries' | 'exporter_countries';
  label: string;
  values: string[];
  /** False when the store refused the code; the typed text then stays for correction. */
  onAdd: (code: string) => boolean;
  onRemove: (index: number) => void;
  onBlur: () => void;
  query: string;
  onQueryChange: (text: string) => void;
  error?: ReactNode;
}) {
  return (
    <PickerField
      field={props.field}
      label={props.label}
      placeholder="Country, alias or ISO code"
      values={props.values}
      tags={props.values.map((v) => ({ value: v, label: countryName(v) }))}
      options={(q) =>
        searchCountryMatches(q, 40)
          .filter((c) => !props.values.includes(c.code))
          .map((c) => ({
            value: c.code,
            close: c.close,
            content: (
              <>
                {c.name}{' '}
                <Text span c="dimmed" fz="xs">
                  {c.code}
                </Text>
              </>
            ),
          }))
      }
      // A typed code ("de", "ALL") is that code even when a name also contains it; else the first
      // option when it is a close match ("ger" → Germany). A match only inside a name ("ger" in
      // Algeria) is shown but not highlighted: Enter never takes a country the analyst did not mean.
      defaultActive={(q, options) => {
        const typed = q.trim().toUpperCase();
        if (isKnownCountryCode(typed)) return options.findIndex((o) => o.value === typed);
        return options[0]?.close ? 0 : -1;
      }}
      enterUnhighlighted={(q, options) => {
        const typed = q.trim().toUpperCase();
        if (isKnownCountryCode(typed)) return typed;
        // The closest country is already chosen ("ger" with Germany in the list): Enter adds nothing
        // and clears the text.
        const best = searchCountryMatches(q, 1)[0];
        if (best?.close && props.values.includes(best.code)) return best.code;
        // Text matching nothing goes to the store, as typed, to be refused with a reason in its words.
        return options.length === 0 ? q.trim() : null;
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

import type { ReactNode } from 'react';
import { Text } from '@mantine/core';
import { countryName, isKnownCountryCode, searchCountries } from './countries';
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
  onQueryChange: () => void;
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
        searchCountries(q, 40)
          .filter((c) => !props.values.includes(c.code))
          .map((c) => ({
            value: c.code,
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
      // match; text matching nothing goes to the store to be refused with a reason.
      enterValue={(q, options) => {
        const typed = q.trim().toUpperCase();
        if (isKnownCountryCode(typed)) return typed;
        return options[0]?.value ?? typed;
      }}
      onAdd={props.onAdd}
      onRemove={props.onRemove}
      onBlur={props.onBlur}
      onQueryChange={props.onQueryChange}
      error={props.error}
    />
  );
}

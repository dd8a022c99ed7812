import { useId, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Box, Paper, TextInput, UnstyledButton } from '@mantine/core';
import { MAX_LIST_ITEMS } from '@shared/spec';
import type { ListField } from './filter-model';
import { TagList, type TagView } from './tag-list';

export interface PickerOption {
  value: string;
  content: ReactNode;
  /** Indent for tree-like lists (HS chapters, headings, subheadings). */
  indent?: number;
}

/**
 * A list field picked from a searchable list: type, pick with the mouse or Enter, entries shown as
 * pills under the field. Enter on an empty field is left to the form (it runs the search).
 */
export function PickerField(props: {
  field: ListField;
  label: string;
  placeholder: string;
  values: string[];
  tags: TagView[];
  /** The options for the text typed (computed only while the list is open). */
  options: (query: string) => PickerOption[];
  /** What Enter takes for the typed text, given the options shown. */
  enterValue: (query: string, options: PickerOption[]) => string | null;
  onAdd: (value: string) => boolean;
  onRemove: (index: number) => void;
  onBlur: () => void;
  onQueryChange: () => void;
  /** Why the last entry was refused, and the field's messages from the validation. */
  error?: ReactNode;
}) {
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const listId = useId();
  const options = open ? props.options(query) : [];
  const pick = (value: string) => {
    if (!props.onAdd(value)) return;
    setQuery('');
    setOpen(false);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Escape' && open) {
      e.preventDefault();
      e.stopPropagation();
      setOpen(false);
    }
    if (e.key !== 'Enter' || !query.trim()) return;
    e.preventDefault();
    const v = props.enterValue(query, options.length ? options : props.options(query));
    if (v) pick(v);
  };
  return (
    <Box pos="relative" data-testid={`filter-${props.field}`}>
      <TextInput
        label={props.label}
        description={`${props.values.length} of ${MAX_LIST_ITEMS}`}
        inputWrapperOrder={['label', 'input', 'description', 'error']}
        placeholder={props.placeholder}
        value={query}
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        autoComplete="off"
        data-testid={`filter-${props.field}-input`}
        error={props.error}
        errorProps={{ 'data-testid': `filter-${props.field}-message`, role: 'alert' }}
        onChange={(e) => {
          setQuery(e.currentTarget.value);
          setOpen(true);
          props.onQueryChange();
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => {
          // Later, so a click on an option lands before the list closes.
          setTimeout(() => setOpen(false), 150);
          props.onBlur();
        }}
        onKeyDown={onKeyDown}
      />
      {open && options.length > 0 && (
        <Paper
          component="ul"
          id={listId}
          role="listbox"
          shadow="md"
          p={4}
          data-testid={`filter-${props.field}-options`}
          pos="absolute"
          left={0}
          top={58}
          w="max(100%, 340px)"
          mah={260}
          style={{ zIndex: 30, overflowY: 'auto', listStyle: 'none', margin: 0 }}
        >
          {options.map((o) => (
            <UnstyledButton
              key={o.value}
              component="li"
              role="option"
              aria-selected={false}
              data-testid={`filter-${props.field}-option-${o.value}`}
              onMouseDown={(e) => {
                e.preventDefault();
                pick(o.value);
              }}
              className="picker-option"
              fz="sm"
              px={6}
              py={3}
              pl={6 + (o.indent ?? 0) * 8}
              display="block"
              w="100%"
            >
              {o.content}
            </UnstyledButton>
          ))}
        </Paper>
      )}
      <TagList field={props.field} tags={props.tags} onRemove={props.onRemove} />
    </Box>
  );
}

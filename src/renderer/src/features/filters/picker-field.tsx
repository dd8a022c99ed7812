import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Box, Paper, TextInput, UnstyledButton } from '@mantine/core';
import { MAX_LIST_ITEMS } from '@shared/spec';
import type { ListField } from './filter-model';
import { TagList, type TagView } from './tag-list';

export interface PickerOption {
  value: string;
  content: ReactNode;
  /** Indent for tree-like lists (HS chapters, headings, subheadings). */
  indent?: number;
  /** A close match for the text typed (the picker decides what that means). */
  close?: boolean;
}

/**
 * A list field picked from a searchable list: type, pick with the mouse or with the arrows and Enter,
 * entries shown as pills under the field. Enter takes the highlighted option, the one the analyst
 * sees marked, and nothing else; with none highlighted the picker decides (`enterUnhighlighted`).
 * Enter on an empty field is left to the form (it runs the search).
 */
export function PickerField(props: {
  field: ListField;
  label: string;
  placeholder: string;
  values: string[];
  tags: TagView[];
  /** The options for the text typed (computed only while the list is open). */
  options: (query: string) => PickerOption[];
  /** The option highlighted as the text is typed (-1: none), before any arrow key moves it. */
  defaultActive: (query: string, options: PickerOption[]) => number;
  /** What Enter takes when no option is highlighted (a typed code, or text to be refused), or null. */
  enterUnhighlighted: (query: string, options: PickerOption[]) => string | null;
  /** The text typed and not added yet (kept by the filter store, which the run's check reads). */
  query: string;
  onQueryChange: (text: string) => void;
  /** Adds the entry (and empties the typed text); false when it was refused and the text stays. */
  onAdd: (value: string) => boolean;
  onRemove: (index: number) => void;
  onBlur: () => void;
  /** Why the last entry was refused, and the field's messages from the validation. */
  error?: ReactNode;
}) {
  const query = props.query;
  const [open, setOpen] = useState(false);
  // Moved by the arrows or the pointer; null follows the typed text (`defaultActive`).
  const [moved, setMoved] = useState<number | null>(null);
  const listId = useId();
  const listRef = useRef<HTMLUListElement>(null);
  const options = open ? props.options(query) : [];
  const active = open ? (moved ?? props.defaultActive(query, options)) : -1;
  const activeValue = options[active]?.value;
  // The highlighted option stays in view as the arrows move it through a long list.
  useEffect(() => {
    if (active < 0) return;
    listRef.current?.children[active]?.scrollIntoView?.({ block: 'nearest' });
  }, [active, activeValue]);
  const pick = (value: string) => {
    if (!props.onAdd(value)) return;
    setMoved(null);
    setOpen(false);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Escape' && open) {
      e.preventDefault();
      e.stopPropagation();
      setOpen(false);
    }
    if ((e.key === 'ArrowDown' || e.key === 'ArrowUp') && options.length > 0) {
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setMoved(
        active < 0 ? (step > 0 ? 0 : options.length - 1) : (active + step + options.length) % options.length,
      );
      return;
    }
    if (e.key !== 'Enter' || !query.trim()) return;
    e.preventDefault();
    const shown = options.length ? options : props.options(query);
    const highlighted = open ? options[active] : shown[props.defaultActive(query, shown)];
    const v = highlighted ? highlighted.value : props.enterUnhighlighted(query, shown);
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
        aria-activedescendant={activeValue !== undefined ? `${listId}-${active}` : undefined}
        autoComplete="off"
        data-testid={`filter-${props.field}-input`}
        error={props.error}
        errorProps={{ 'data-testid': `filter-${props.field}-message`, role: 'alert' }}
        onChange={(e) => {
          props.onQueryChange(e.currentTarget.value);
          setMoved(null);
          setOpen(true);
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
          ref={listRef}
          id={listId}
          role="listbox"
          // Reached from the field (arrows, aria-activedescendant), never by Tab: a scrolling list is a
          // Tab stop of its own in Chromium, and Tab from the field must go on to the next field.
          tabIndex={-1}
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
          {options.map((o, i) => (
            <UnstyledButton
              key={o.value}
              component="li"
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              data-active={i === active || undefined}
              data-value={o.value}
              data-testid={`filter-${props.field}-option-${o.value}`}
              onMouseEnter={() => setMoved(i)}
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

import { useState, type ReactNode } from 'react';
import { Box, TextInput } from '@mantine/core';
import { TagList } from './tag-list';

/** Firm type codes as integer tags; a non-number is kept as a tag so its message can point at it. */
export function FirmTypeInput(props: {
  values: string[];
  onAdd: (v: string) => void;
  onRemove: (i: number) => void;
  error?: ReactNode;
}) {
  const [text, setText] = useState('');
  const add = () => {
    for (const part of text.split(/[\s,;]+/)) if (part) props.onAdd(part);
    setText('');
  };
  return (
    <Box data-testid="filter-firm_filter">
      <TextInput
        label="Firm type codes"
        inputMode="numeric"
        placeholder="e.g. 1, 2"
        value={text}
        autoComplete="off"
        data-testid="filter-firm_filter-input"
        error={props.error}
        onChange={(e) => setText(e.currentTarget.value)}
        onBlur={add}
        onKeyDown={(e) => {
          // Enter or a comma ends a code; Enter on an empty field is left to the form (it runs).
          if ((e.key === 'Enter' && text.trim()) || e.key === ',') {
            e.preventDefault();
            add();
          }
        }}
      />
      <TagList field="firm_filter" tags={props.values.map((v) => ({ value: v }))} onRemove={props.onRemove} />
    </Box>
  );
}

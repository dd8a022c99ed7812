import { useState } from 'react';
import { TagList } from './tag-list';

/** Firm type codes as integer tags; a non-number is kept as a tag so its message can point at it. */
export function FirmTypeInput(props: {
  values: string[];
  onAdd: (v: string) => void;
  onRemove: (i: number) => void;
}) {
  const [text, setText] = useState('');
  const add = () => {
    for (const part of text.split(/[\s,;]+/)) if (part) props.onAdd(part);
    setText('');
  };
  return (
    <div className="filter-field" data-testid="filter-firm_filter">
      <label>
        Firm type codes
        <input
          type="text"
          inputMode="numeric"
          placeholder="e.g. 1, 2"
          value={text}
          data-testid="filter-firm_filter-input"
          onChange={(e) => setText(e.target.value)}
          onBlur={add}
          onKeyDown={(e) => {
            if (e.key === 'Enter' || e.key === ',') {
              e.preventDefault();
              add();
            }
          }}
        />
      </label>
      <TagList field="firm_filter" tags={props.values.map((v) => ({ value: v }))} onRemove={props.onRemove} />
    </div>
  );
}

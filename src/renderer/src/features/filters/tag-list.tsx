import { Pill } from '@mantine/core';
import type { ListField } from './filter-model';

export interface TagView {
  value: string;
  label?: string | undefined;
  title?: string | undefined;
}

/** A list field's entries as removable pills; a long HS description is cut, its full text in the tooltip. */
export function TagList({
  field,
  tags,
  onRemove,
}: {
  field: ListField;
  tags: TagView[];
  onRemove: (index: number) => void;
}) {
  if (tags.length === 0) return null;
  return (
    <Pill.Group data-testid={`filter-${field}-tags`} mt={4} gap={4}>
      {tags.map((t, i) => (
        <Pill
          key={`${t.value}-${i}`}
          data-testid={`filter-${field}-tag-${i}`}
          data-tag={t.value}
          title={t.title ?? (t.label ? `${t.value} ${t.label}` : t.value)}
          withRemoveButton
          onRemove={() => onRemove(i)}
          removeButtonProps={
            {
              'aria-label': `Remove ${t.value}`,
              'data-testid': `filter-${field}-remove-${i}`,
            } as Record<string, string>
          }
          // Never wider than its field's column (about 210 px at 1024): a longer description is cut
          // inside the pill, its remove button kept in reach, the whole text in the tooltip.
          maw="100%"
        >
          <strong>{t.value}</strong>
          {t.label ? ` ${t.label}` : ''}
        </Pill>
      ))}
    </Pill.Group>
  );
}

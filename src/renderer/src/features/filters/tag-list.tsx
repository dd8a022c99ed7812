import type { ListField } from './filter-model';

export interface TagView {
  value: string;
  label?: string | undefined;
  title?: string | undefined;
}

export function TagList({
  field,
  tags,
  onRemove,
}: {
  field: ListField;
  tags: TagView[];
  onRemove: (index: number) => void;
}) {
  return (
    <ul
      className="tag-list"
      data-testid={`filter-${field}-tags`}
      style={{ display: 'flex', flexWrap: 'wrap', gap: 4, listStyle: 'none', padding: 0, margin: '4px 0' }}
    >
      {tags.map((t, i) => (
        <li
          key={`${t.value}-${i}`}
          className="tag"
          data-testid={`filter-${field}-tag-${i}`}
          title={t.title}
          style={{
            display: 'inline-flex',
            alignItems: 'center',
            border: '1px solid var(--border, #999)',
            borderRadius: 10,
            padding: '0 2px 0 6px',
            fontSize: 12,
            maxWidth: 360,
          }}
        >
          {/* Only the label is clipped: the remove button must stay visible for long HS descriptions. */}
          <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
            <strong>{t.value}</strong>
            {t.label ? ` ${t.label}` : ''}
          </span>
          <button
            type="button"
            aria-label={`Remove ${t.value}`}
            data-testid={`filter-${field}-remove-${i}`}
            onClick={() => onRemove(i)}
            style={{
              marginLeft: 4,
              border: 0,
              background: 'none',
              cursor: 'pointer',
              color: 'inherit',
              flex: 'none',
            }}
          >
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}

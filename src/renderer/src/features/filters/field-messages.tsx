import type { FormSlot } from './filter-model';

/** The messages of one slot, under its control, announced to screen readers as they change. */
export function FieldMessages({ slot, messages }: { slot: FormSlot; messages: string[] | undefined }) {
  if (!messages?.length) return null;
  return (
    <div
      className="field-error"
      role="alert"
      data-testid={`filter-${slot}-error`}
      style={{ color: 'var(--danger, #c0392b)', fontSize: 12 }}
    >
      {messages.map((m) => (
        <div key={m}>{m}</div>
      ))}
    </div>
  );
}

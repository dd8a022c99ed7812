import { Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { FormSlot, ListField } from './filter-model';

/**
 * A field's messages for a Mantine input's `error`: why the last typed entry was refused
 * (`filter-<field>-refused`) and what the validation says (`filter-<field>-error`), or nothing, so
 * the field is red exactly while it has a cause.
 */
export function fieldError(
  slot: FormSlot,
  messages: string[] | undefined,
  refused?: string | undefined,
): ReactNode | undefined {
  if (!messages?.length && !refused) return undefined;
  return (
    <>
      {refused ? (
        <span data-testid={`filter-${slot as ListField}-refused`} style={{ display: 'block' }}>
          {refused}
        </span>
      ) : null}
      {messages?.length ? (
        <span data-testid={`filter-${slot}-error`} style={{ display: 'block' }}>
          {messages.map((m) => (
            <span key={m} style={{ display: 'block' }}>
              {m}
            </span>
          ))}
        </span>
      ) : null}
    </>
  );
}

/** The messages of a slot that has no input of its own (the form as a whole, the size), announced as they change. */
export function FieldMessages({ slot, messages }: { slot: FormSlot; messages: string[] | undefined }) {
  if (!messages?.length) return null;
  return (
    <Text c="red" fz="xs" role="alert" data-testid={`filter-${slot}-error`}>
      {messages.map((m) => (
        <span key={m} style={{ display: 'block' }}>
          {m}
        </span>
      ))}
    </Text>
  );
}

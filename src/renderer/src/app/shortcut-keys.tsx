import { Group, Kbd } from '@mantine/core';

/** A shortcut as the keys to press, one `Kbd` each (the palette's entries, the shortcuts list). */
export function ShortcutKeys({ keys, justify }: { keys: string[]; justify?: 'flex-end' }) {
  return (
    <Group gap={4} wrap="nowrap" justify={justify} aria-label={`Shortcut ${keys.join('+')}`}>
      {keys.map((k) => (
        <Kbd key={k} size="xs">
          {k}
        </Kbd>
      ))}
    </Group>
  );
}

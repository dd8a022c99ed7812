import { Code } from '@mantine/core';
import { Fragment } from 'react';

/**
 * A message from main as the analyst reads it: a command written between backticks
 * (`dbus-run-session`) is shown as code to type, not as text with stray backticks around it.
 */
export function MessageText({ text }: { text: string }) {
  const parts = text.split(/`([^`]+)`/);
  // split() with one capture group: even indexes are the text between, odd ones the commands.
  return (
    <>
      {parts.map((part, i) =>
        i % 2 === 1 ? <Code key={i}>{part}</Code> : <Fragment key={i}>{part}</Fragment>,
      )}
    </>
  );
}

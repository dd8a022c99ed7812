import { Button, Text, Tooltip } from '@mantine/core';

/**
 * A run button that is disabled while the request would be refused; why is said next to it
 * (`${testId}-reason`). The page's primary action is filled, others are secondary.
 */
export function RunButton(props: {
  testId: string;
  label: string;
  reason: string | null;
  busy?: boolean;
  onRun: () => void;
  primary?: boolean;
  /** Shortcut shown in the tooltip, e.g. "Enter · Ctrl+Enter". */
  shortcut?: string;
  /** Leaves the reason out: the page shows it elsewhere (`RunReason`). */
  hideReason?: boolean;
}) {
  const button = (
    <Button
      type="button"
      variant={props.primary === false ? 'default' : 'filled'}
      data-testid={props.testId}
      disabled={Boolean(props.reason) || props.busy}
      loading={props.busy}
      aria-describedby={props.reason ? `${props.testId}-reason` : undefined}
      aria-keyshortcuts={props.shortcut ? props.shortcut.replace(/ · /g, ' ') : undefined}
      onClick={props.onRun}
      style={{ flexShrink: 0 }}
    >
      {props.label}
    </Button>
  );
  return (
    <>
      {props.shortcut && !props.reason ? <Tooltip label={props.shortcut}>{button}</Tooltip> : button}
      {props.reason && !props.hideReason && <RunReason testId={props.testId} reason={props.reason} />}
    </>
  );
}

/** Why a run button is off, in the form's words. */
export function RunReason({ testId, reason }: { testId: string; reason: string | null }) {
  if (!reason) return null;
  return (
    <Text
      id={`${testId}-reason`}
      data-testid={`${testId}-reason`}
      role="note"
      c="red"
      fz="sm"
      miw={0}
      style={{ overflowWrap: 'anywhere' }}
    >
      {reason}
    </Text>
  );
}

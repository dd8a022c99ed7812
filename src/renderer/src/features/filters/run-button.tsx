/** A run button that is disabled while the request would be refused, saying why next to it. */
export function RunButton(props: {
  testId: string;
  label: string;
  reason: string | null;
  busy?: boolean;
  onRun: () => void;
}) {
  return (
    <>
      <button
        type="button"
        data-testid={props.testId}
        disabled={Boolean(props.reason) || props.busy}
        aria-describedby={props.reason ? `${props.testId}-reason` : undefined}
        onClick={props.onRun}
      >
        {props.label}
      </button>
      {props.reason && (
        <span
          id={`${props.testId}-reason`}
          data-testid={`${props.testId}-reason`}
          role="note"
          style={{ color: 'var(--danger, #c0392b)' }}
        >
          {props.reason}
        </span>
      )}
    </>
  );
}

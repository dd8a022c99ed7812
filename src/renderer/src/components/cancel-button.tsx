import { Button, Tooltip } from '@mantine/core';

/** The Cancel of running work, next to its progress; Escape does the same (`useEscapeCancels`). */
export function CancelButton({ testId, onCancel }: { testId: string; onCancel: () => void }) {
  return (
    <Tooltip label="Escape">
      <Button
        size="compact-sm"
        variant="default"
        data-testid={testId}
        aria-keyshortcuts="Escape"
        onClick={onCancel}
      >
        Cancel
      </Button>
    </Tooltip>
  );
}

import type { Ref } from 'react';
import { Button } from '@mantine/core';
import { tryAgainIn } from '@shared/ipc/errors';

/**
 * A dialog's Try again (it submits the dialog's form). While `msLeft` is above 0 it is held, with the
 * wait on it ("Try again in 42 s", in the words of the limit's message beside it): a check the service
 * refused for a limit, asked again before the wait it gave is over, would only be refused again and
 * counted.
 */
export function TryAgainButton({
  msLeft,
  testId,
  ref,
}: {
  msLeft: number;
  testId: string;
  ref?: Ref<HTMLButtonElement>;
}) {
  const waiting = msLeft > 0;
  return (
    <Button type="submit" data-testid={testId} ref={ref} disabled={waiting}>
      {waiting ? tryAgainIn(Math.ceil(msLeft / 1000)) : 'Try again'}
    </Button>
  );
}

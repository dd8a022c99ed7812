import { Box, Input } from '@mantine/core';
import type { ReactNode } from 'react';

export interface ChoiceFieldProps {
  /** As the analyst says it; may carry an info icon beside the words. */
  label: ReactNode;
  /** Id of the label, for the control's `aria-labelledby`. */
  labelId?: string;
  /** A hint under the control. */
  description?: ReactNode;
  children: ReactNode;
}

/**
 * A label over a control that is no text input (a `SegmentedControl`), drawn as Mantine draws a
 * field's label: the theme's label weight and spacing, the control on a line of its own under it and
 * the hint below, so "Records" reads as "Header row" does beside it.
 */
export function ChoiceField({ label, labelId, description, children }: ChoiceFieldProps) {
  return (
    <Input.Wrapper
      label={label}
      labelElement="div"
      labelProps={labelId ? { id: labelId } : undefined}
      description={description}
      inputWrapperOrder={['label', 'input', 'description']}
      // The control is inline: on a line of its own under the label, as a field's input is.
      inputContainer={(control) => <Box>{control}</Box>}
    >
      {children}
    </Input.Wrapper>
  );
}

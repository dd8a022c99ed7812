import type { ChangeEvent } from 'react';
import { PasswordInput, TextInput } from '@mantine/core';

export interface TextFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  testId: string;
  error?: string | undefined;
  type?: 'text' | 'password' | 'url';
  placeholder?: string;
  hint?: string;
  autoFocus?: boolean;
}

/**
 * The hint goes under the input, as the error does: fields side by side keep their inputs on one line
 * whether or not one of them has a hint.
 */
const HINT_BELOW: ('label' | 'input' | 'description' | 'error')[] = [
  'label',
  'input',
  'description',
  'error',
];

/**
 * A labelled text input with its hint and validation message underneath, tied together for screen
 * readers (Mantine's input wrapper). The input carries `testId`; its message `${testId}-error`.
 */
export function TextField(props: TextFieldProps) {
  const common = {
    label: props.label,
    value: props.value,
    placeholder: props.placeholder,
    autoFocus: props.autoFocus,
    description: props.error ? undefined : props.hint,
    inputWrapperOrder: HINT_BELOW,
    error: props.error,
    errorProps: { 'data-testid': `${props.testId}-error`, role: 'alert' },
    'data-testid': props.testId,
    spellCheck: false,
    onChange: (e: ChangeEvent<HTMLInputElement>) => props.onChange(e.currentTarget.value),
  };
  // Password managers and spell checkers have no business with API credentials.
  if (props.type === 'password') {
    return <PasswordInput {...common} autoComplete="new-password" />;
  }
  return <TextInput {...common} type={props.type ?? 'text'} autoComplete="off" />;
}

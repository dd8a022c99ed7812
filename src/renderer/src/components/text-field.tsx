import { useId } from 'react';

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

/** A labelled input with its validation message underneath, tied together for screen readers. */
export function TextField(props: TextFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy =
    [props.error ? errorId : null, props.hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={props.error ? 'field field--invalid' : 'field'}>
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        data-testid={props.testId}
        type={props.type ?? 'text'}
        value={props.value}
        placeholder={props.placeholder}
        autoFocus={props.autoFocus}
        // Password managers and spell checkers have no business with API credentials.
        autoComplete={props.type === 'password' ? 'new-password' : 'off'}
        spellCheck={false}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy}
        onChange={(e) => props.onChange(e.target.value)}
      />
      {props.hint && !props.error ? (
        <div id={hintId} className="field__hint">
          {props.hint}
        </div>
      ) : null}
      {props.error ? (
        <div id={errorId} className="field__error" role="alert" data-testid={`${props.testId}-error`}>
          {props.error}
        </div>
      ) : null}
    </div>
  );
}

import { ActionIcon, Popover, TextInput } from '@mantine/core';
import { DatePicker } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import { useState } from 'react';
import { fieldError } from './field-messages';
import { FIELD_LABELS, normalizeDateText } from './filter-model';

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
type DateField = 'start_date' | 'end_date';

/** The range calendar behind each date field's button: picking both ends fills both fields. */
function RangeCalendar(props: {
  field: DateField;
  start: string;
  end: string;
  onChange: (field: DateField, value: string) => void;
}) {
  const [open, setOpen] = useState(false);
  const [picking, setPicking] = useState<[string | null, string | null] | null>(null);
  const whole = (t: string) => (ISO_DAY.test(t) ? t : null);
  const range: [string | null, string | null] = picking ?? [whole(props.start), whole(props.end)];
  const label = 'Pick the dates on a calendar';
  return (
    <Popover
      opened={open}
      onChange={(o) => {
        setOpen(o);
        if (!o) setPicking(null);
      }}
      position="bottom-end"
      shadow="md"
      trapFocus
      returnFocus
      withinPortal={false}
    >
      <Popover.Target>
        <ActionIcon
          size="sm"
          aria-label={label}
          title={label}
          data-testid={`filter-${props.field}-calendar`}
          onClick={() => setOpen((o) => !o)}
        >
          <IconCalendar size={16} stroke={1.6} />
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown data-testid="filter-dates-picker">
        <DatePicker
          type="range"
          allowSingleDateInRange
          value={range}
          defaultDate={(props.field === 'end_date' ? range[1] : range[0]) ?? range[0] ?? undefined}
          onChange={([from, to]) => {
            setPicking([from, to]);
            if (from) props.onChange('start_date', from);
            if (to) {
              props.onChange('end_date', to);
              setPicking(null);
              setOpen(false);
            }
          }}
        />
      </Popover.Dropdown>
    </Popover>
  );
}

/**
 * Shipment dates as two typed fields and a range calendar. What is typed stays as typed until it is a
 * whole date: a half-typed or impossible date is shown with its message and blocks the run, never
 * dropped. Renders two cells of the form's grid.
 */
export function DateRangeField(props: {
  start: string;
  end: string;
  onChange: (field: DateField, value: string) => void;
  onBlur: (field: DateField) => void;
  startMessages?: string[] | undefined;
  endMessages?: string[] | undefined;
}) {
  const field = (which: DateField, value: string, messages?: string[]) => (
    <TextInput
      label={FIELD_LABELS[which]}
      placeholder="yyyy-mm-dd"
      value={value}
      autoComplete="off"
      spellCheck={false}
      data-testid={`filter-${which}-input`}
      error={fieldError(which, messages)}
      rightSection={
        <RangeCalendar field={which} start={props.start} end={props.end} onChange={props.onChange} />
      }
      onChange={(e) => props.onChange(which, e.currentTarget.value)}
      onBlur={(e) => {
        const tidy = normalizeDateText(e.currentTarget.value);
        if (tidy !== e.currentTarget.value) props.onChange(which, tidy);
        props.onBlur(which);
      }}
    />
  );
  return (
    <>
      {field('start_date', props.start, props.startMessages)}
      {field('end_date', props.end, props.endMessages)}
    </>
  );
}

import { describe, expect, it } from 'vitest';
import { formatMoment } from '../../src/renderer/src/components/format';

describe('formatMoment: the one way a page writes when something was saved or taken', () => {
  const noon = '2026-02-28T12:00:07.000Z';

  it('spells the date and leaves out the seconds, as the Firms and Watched pages show it', () => {
    const text = formatMoment(noon);
    expect(text).toBe(
      new Date(Date.parse(noon)).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }),
    );
    expect(text).not.toMatch(/:07\b/);
    // Never the all-digit "2/28/2026, 12:00:07 PM" of a bare toLocaleString().
    expect(text).not.toBe(new Date(Date.parse(noon)).toLocaleString());
    expect(formatMoment(Date.parse(noon))).toBe(text);
  });

  it('shows a dash for no moment, and text that is not a date as it is', () => {
    expect(formatMoment(null)).toBe('—');
    expect(formatMoment('sometime')).toBe('sometime');
  });
});

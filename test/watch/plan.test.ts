import { describe, expect, it } from 'vitest';
import { describeWindow, mergeWindows, refreshWindows } from '../../src/main/watch';

describe('the windows a refresh fetches', () => {
  it('takes the whole query when there is no snapshot yet', () => {
    expect(refreshWindows({ start_date: '2024-01-01', end_date: '2024-12-31' }, null, 30)).toEqual([
      { start: '2024-01-01', end: '2024-12-31' },
    ]);
    expect(refreshWindows({}, { newestDate: null, incomplete: [] }, 30)).toEqual([{}]);
  });

  it('starts the overlap days before the newest record held, up to the query’s end', () => {
    expect(
      refreshWindows({ start_date: '2024-01-01' }, { newestDate: '2024-03-10', incomplete: [] }, 30),
    ).toEqual([{ start: '2024-02-09' }]);
    expect(
      refreshWindows(
        { start_date: '2024-03-01', end_date: '2024-06-30' },
        { newestDate: '2024-03-10', incomplete: [] },
        30,
      ),
    ).toEqual([{ start: '2024-03-01', end: '2024-06-30' }]);
  });

  it('adds the windows the last snapshot left incomplete, merged where they meet', () => {
    const last = {
      newestDate: '2024-06-30',
      incomplete: [
        { start: '2024-01-01', end: '2024-01-05' },
        { start: '2024-01-06', end: '2024-01-09' },
        { start: '2024-05-20', end: '2024-06-10' },
      ],
    };
    expect(refreshWindows({ start_date: '2024-01-01' }, last, 30)).toEqual([
      { start: '2024-01-01', end: '2024-01-09' },
      { start: '2024-05-20' },
    ]);
  });

  it('merges overlapping and touching windows, keeping open ends open', () => {
    expect(mergeWindows([{ start: '2024-02-01', end: '2024-02-10' }, { end: '2024-01-31' }])).toEqual([
      { end: '2024-02-10' },
    ]);
    expect(mergeWindows([{ start: '2024-02-01' }, { start: '2024-01-01', end: '2024-01-30' }])).toEqual([
      { start: '2024-01-01', end: '2024-01-30' },
      { start: '2024-02-01' },
    ]);
  });

  it('says a window in words', () => {
    expect(describeWindow({ start: '2024-01-01', end: '2024-01-31' })).toBe('2024-01-01 – 2024-01-31');
    expect(describeWindow({ start: '2024-01-01' })).toBe('from 2024-01-01');
    expect(describeWindow({})).toBe('all dates');
  });
});

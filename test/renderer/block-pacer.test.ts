import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBlockPacer } from '../../src/renderer/src/components/grid/block-pacer';

/**
 * An infinite grid's block reads: the first block of a view goes out at once (an answer's first rows,
 * another sort), a further block of the same view once the analyst's scroll has settled.
 */
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('createBlockPacer', () => {
  it('reads the first block of a view at once, and of each new view', () => {
    const pacer = createBlockPacer(50);
    const reads: string[] = [];
    pacer.pace('by date', 0, () => reads.push('by date 0'));
    expect(reads).toEqual(['by date 0']);
    pacer.pace('by value', 0, () => reads.push('by value 0'));
    pacer.pace('by date', 0, () => reads.push('by date again 0'));
    expect(reads).toEqual(['by date 0', 'by value 0', 'by date again 0']);
  });

  it('holds further blocks of the same view until no block was asked for during the settle time', () => {
    const pacer = createBlockPacer(50);
    const reads: number[] = [];
    pacer.pace('v', 0, () => reads.push(0));
    pacer.pace('v', 200, () => reads.push(1));
    vi.advanceTimersByTime(40);
    pacer.pace('v', 400, () => reads.push(2));
    vi.advanceTimersByTime(40);
    // 80 ms after block 1 was asked for, but only 40 ms after block 2: the scroll goes on.
    expect(reads).toEqual([0]);
    vi.advanceTimersByTime(10);
    expect(reads).toEqual([0, 1, 2]);
  });

  it('reads a block asked for again in the same view at once (the grid refreshed its cache)', () => {
    const pacer = createBlockPacer(50);
    const reads: string[] = [];
    pacer.pace('v', 0, () => reads.push('first'));
    // A restored filter or shown column makes the grid read its first block again, in the same view.
    pacer.pace('v', 0, () => reads.push('again'));
    pacer.pace('v', 0, () => reads.push('and again'));
    expect(reads).toEqual(['first', 'again', 'and again']);
  });

  it('drops the reads still waiting when stopped (the grid got another data source)', () => {
    const pacer = createBlockPacer(50);
    const reads: number[] = [];
    pacer.pace('v', 0, () => reads.push(0));
    pacer.pace('v', 200, () => reads.push(1));
    pacer.stop();
    vi.advanceTimersByTime(500);
    expect(reads).toEqual([0]);
  });
});

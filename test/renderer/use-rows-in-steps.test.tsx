// @vitest-environment jsdom
import { cleanup, render, screen, waitFor } from './render';
import { afterEach, describe, expect, it } from 'vitest';
import { useRowsInSteps } from '../../src/renderer/src/components/use-rows-in-steps';

/**
 * A long list drawn in two steps: its first rows with the render that shows it, the rest in a render
 * of their own right after (a file's mapping of 88 columns drawn at once held the window for 98–139 ms;
 * the import dialog's own case is in import-check.test.tsx).
 */
function Rows({ list, total, drawn }: { list: unknown; total: number; drawn: number[] }) {
  const n = useRowsInSteps(list, total, 3);
  drawn.push(n);
  return (
    <ul>
      {Array.from({ length: n }, (_, i) => (
        <li key={i}>{i}</li>
      ))}
    </ul>
  );
}

afterEach(cleanup);

describe('a long list drawn in steps', () => {
  it('draws its first rows first, then every row in a render of its own', async () => {
    const drawn: number[] = [];
    render(<Rows list={{}} total={10} drawn={drawn} />);
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(10));
    expect(drawn[0]).toBe(3);
    expect(drawn.at(-1)).toBe(10);
  });

  it('starts again with the first rows when another list is shown, and keeps every row of the same one', async () => {
    const drawn: number[] = [];
    const first = 'file a';
    const view = render(<Rows list={first} total={10} drawn={drawn} />);
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(10));
    drawn.length = 0;
    view.rerender(<Rows list={first} total={12} drawn={drawn} />);
    expect(drawn).toEqual([12]);
    drawn.length = 0;
    view.rerender(<Rows list="file b" total={8} drawn={drawn} />);
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(8));
    expect(drawn[0]).toBe(3);
  });

  it('draws a short list whole at once', () => {
    const drawn: number[] = [];
    render(<Rows list={{}} total={2} drawn={drawn} />);
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
    expect(new Set(drawn)).toEqual(new Set([2]));
  });
});

import { startTransition, useEffect, useState } from 'react';

/**
 * How many of a long list's `total` rows to draw: the first `first` in the render that shows the list,
 * every row from a render of its own right after. Drawn at once, a file's mapping of 88 columns held the
 * window's thread for 98–139 ms, a stall the analyst feels; the rest now comes as a transition, which
 * React renders in slices between frames, after the dialog is on screen. `list` names what is shown
 * (equal while it is, so that the rows stay put as it changes): another starts with its first rows again.
 */
export function useRowsInSteps(list: unknown, total: number, first: number): number {
  const [whole, setWhole] = useState<unknown>(null);
  const all = whole === list;
  useEffect(() => {
    if (!all && total > first) startTransition(() => setWhole(list));
  }, [all, list, total, first]);
  return all || total <= first ? total : first;
}

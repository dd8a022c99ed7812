import { useLayoutEffect, useState, type RefObject } from 'react';

/** Where one field (label, input and message) starts and ends, from the top of the scrolled content. */
export interface RowSpan {
  top: number;
  bottom: number;
}

/**
 * The height a scrolling field area may take so that it ends between fields, never across one: the
 * lowest field bottom within `limit` that no other field straddles. The whole content when it fits;
 * `limit` itself when not even the first field fits (it then scrolls as it must).
 */
export function wholeRowsHeight(spans: readonly RowSpan[], contentHeight: number, limit: number): number {
  if (contentHeight <= limit) return limit;
  let best = 0;
  for (const { bottom } of spans) {
    if (bottom > limit || bottom <= best) continue;
    // Half a pixel either way: sub-pixel layout must not make a row's own neighbours "straddle" it.
    if (spans.some((o) => o.top < bottom - 0.5 && o.bottom > bottom + 0.5)) continue;
    best = bottom;
  }
  return best > 0 ? Math.ceil(best) : limit;
}

/** The fields of a filter form: each field of its grids and each block between them. */
const FIELD_SELECTOR = '.filter-form-rows > *, .filter-form-block';

/**
 * Keeps a scrolling field area's height at whole fields: as high as the window leaves it
 * (`innerHeight - reserve`, at least `min`), cut at the last field that fits whole, so a label is
 * never shown without its input. Measured again when the window or the fields change size (a field
 * that grows pills or a message, "More filters" opening).
 */
export function useWholeRowsHeight(
  ref: RefObject<HTMLElement | null>,
  min: number,
  reserve: number,
): number | null {
  const [height, setHeight] = useState<number | null>(null);
  useLayoutEffect(() => {
    const box = ref.current;
    if (!box) return;
    const win = box.ownerDocument.defaultView;
    if (!win) return;
    const measure = () => {
      const origin = box.getBoundingClientRect().top - box.scrollTop;
      const spans: RowSpan[] = [];
      for (const el of Array.from(box.querySelectorAll(FIELD_SELECTOR))) {
        const r = el.getBoundingClientRect();
        if (r.height > 0) spans.push({ top: r.top - origin, bottom: r.bottom - origin });
      }
      setHeight(wholeRowsHeight(spans, box.scrollHeight, Math.max(min, win.innerHeight - reserve)));
    };
    measure();
    const observer = new ResizeObserver(measure);
    for (const child of Array.from(box.children)) observer.observe(child);
    win.addEventListener('resize', measure);
    return () => {
      observer.disconnect();
      win.removeEventListener('resize', measure);
    };
  }, [ref, min, reserve]);
  return height;
}

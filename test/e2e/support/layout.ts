import type { Page } from 'playwright-core';

export interface ControlBox {
  /** What the control is, for a readable failure: its test id, label or text. */
  name: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Overlap {
  a: ControlBox;
  b: ControlBox;
  /** Area shared by the two boxes, in CSS pixels². */
  area: number;
}

/**
 * Every control a user can see and reach in the window now: buttons, links, fields, tabs, checkboxes,
 * menus (only those of a modal dialog while one is open). Each box is clipped by its scrolling or
 * clipping ancestors and by the window, so what is scrolled away does not count. Controls inside ag-grid are the grid's own business and left out; the
 * grid itself counts as one box.
 */
export async function visibleControls(page: Page, scope?: string): Promise<ControlBox[]> {
  // Evaluated on the body element: this file is compiled without the DOM's global names.
  return page.locator('body').evaluate((body, scope) => {
    const doc = body.ownerDocument;
    const win = doc.defaultView;
    if (!win) return [];
    const SELECTOR = [
      'button',
      'a[href]',
      'input:not([type="hidden"])',
      'select',
      'textarea',
      '[role="button"]',
      '[role="tab"]',
      '[role="combobox"]',
      '[role="checkbox"]',
      '[role="switch"]',
      '[role="menuitem"]',
      '[role="option"]',
      '.ag-root-wrapper',
    ].join(',');
    type El = typeof body;
    const name = (el: El): string => {
      const id = el.getAttribute('data-testid');
      if (id) return id;
      const label = el.getAttribute('aria-label') ?? el.getAttribute('placeholder');
      if (label) return `${el.tagName.toLowerCase()}[${label}]`;
      return `${el.tagName.toLowerCase()}:${(el.textContent ?? '').trim().slice(0, 40)}`;
    };
    const boxes: { name: string; x: number; y: number; width: number; height: number; el: El }[] = [];
    // A modal dialog takes the window for itself: what lies under its overlay cannot be reached.
    const modal = doc.querySelector('[role="dialog"][aria-modal="true"]');
    // A popover (scope) covers what lies under it: only its own controls are looked at.
    const root = scope ? doc.querySelector(scope) : modal;
    const all: El[] = Array.from((root ?? doc).querySelectorAll(SELECTOR));
    for (const el of all) {
      if (el.closest('.ag-root-wrapper') && !el.matches('.ag-root-wrapper')) continue;
      // A button drawn inside a field's box (a calendar, a clear button: Mantine's input sections) is
      // part of that field, which leaves room for it.
      if (el.closest('.mantine-Input-section')) continue;
      // A native input drawn over by its own styled box (Mantine's checkbox, radio, switch) is one control.
      if (
        el.matches('input[type="checkbox"], input[type="radio"]') &&
        win.getComputedStyle(el).opacity === '0'
      )
        continue;
      const style = win.getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none') continue;
      let r = el.getBoundingClientRect();
      let left = r.left;
      let top = r.top;
      let right = r.right;
      let bottom = r.bottom;
      let hidden = false;
      for (let p = el.parentElement; p; p = p.parentElement) {
        const ps = win.getComputedStyle(p);
        if (ps.display === 'none' || ps.visibility === 'hidden' || ps.opacity === '0') {
          hidden = true;
          break;
        }
        if (ps.overflowX !== 'visible' || ps.overflowY !== 'visible') {
          r = p.getBoundingClientRect();
          left = Math.max(left, r.left);
          top = Math.max(top, r.top);
          right = Math.min(right, r.right);
          bottom = Math.min(bottom, r.bottom);
        }
      }
      left = Math.max(left, 0);
      top = Math.max(top, 0);
      right = Math.min(right, win.innerWidth);
      bottom = Math.min(bottom, win.innerHeight);
      if (hidden || right - left < 2 || bottom - top < 2) continue;
      boxes.push({ name: name(el), x: left, y: top, width: right - left, height: bottom - top, el });
    }
    // A control nested in another (a clear button inside a field, a pill's remove button) is part of it.
    return boxes
      .filter((b) => !boxes.some((o) => o !== b && o.el.contains(b.el)))
      .map(({ name, x, y, width, height }) => ({ name, x, y, width, height }));
  }, scope);
}

/**
 * The controls inside `container` (a CSS selector) that reach past its left or right edge, clipped
 * where the analyst would see them cut; and whether the container itself leaves the window. A list
 * that scrolls inside the container is fine upwards and downwards, never sideways.
 */
export async function cutOffControls(
  page: Page,
  container: string,
): Promise<{ outsideWindow: boolean; cut: string[] }> {
  return page.locator(container).evaluate((box) => {
    const win = box.ownerDocument.defaultView;
    const outer = box.getBoundingClientRect();
    const outsideWindow =
      !win ||
      outer.left < 0 ||
      outer.top < 0 ||
      outer.right > win.innerWidth ||
      outer.bottom > win.innerHeight;
    const cut: string[] = [];
    const controls: (typeof box)[] = Array.from(
      box.querySelectorAll('button, input, select, textarea, [role="button"]'),
    );
    for (const el of controls) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      if (r.left < outer.left - 1 || r.right > outer.right + 1)
        cut.push(
          `${el.getAttribute('data-testid') ?? el.getAttribute('aria-label') ?? el.tagName} ` +
            `${Math.round(r.left)}–${Math.round(r.right)} in ${Math.round(outer.left)}–${Math.round(outer.right)}`,
        );
    }
    return { outsideWindow, cut };
  });
}

/** Pairs of controls whose boxes share more than a hairline (anti-aliased borders may touch). */
export function overlaps(boxes: ControlBox[], tolerance = 1): Overlap[] {
  const out: Overlap[] = [];
  for (const [i, a] of boxes.entries()) {
    for (const b of boxes.slice(i + 1)) {
      const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
      const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
      if (w > tolerance && h > tolerance) out.push({ a, b, area: Math.round(w * h) });
    }
  }
  return out;
}

/** One line per overlap, for a failure message. */
export function describeOverlaps(list: Overlap[]): string {
  const box = (c: ControlBox) =>
    `${c.name} @${Math.round(c.x)},${Math.round(c.y)} ${Math.round(c.width)}×${Math.round(c.height)}`;
  return list.map((o) => `${box(o.a)}  ⟷  ${box(o.b)}  (${o.area} px²)`).join('\n');
}

import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { writeFileAtomic } from '../fs';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowState {
  bounds: Rect;
  maximized: boolean;
}

/** Where a window may go: each display's work area (screen minus task bar / menu bar). */
export type DisplayAreas = readonly Rect[];

export const DEFAULT_SIZE = { width: 1280, height: 820 } as const;
export const MIN_SIZE = { width: 900, height: 600 } as const;
/** How much of the window must be on a display for the saved position to be used (enough to grab the title bar). */
const MIN_VISIBLE = { width: 200, height: 30 } as const;
/** The top of the window that holds the title bar. */
const TITLE_STRIP = 60;

const int = z.number().int().finite();
const stateSchema = z.object({
  bounds: z.object({ x: int, y: int, width: int.positive(), height: int.positive() }),
  maximized: z.boolean(),
});

function overlap(a: Rect, b: Rect): { width: number; height: number } {
  return {
    width: Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)),
    height: Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)),
  };
}

/**
 * The bounds to open the window with. A saved position is used only if the window's top strip (the
 * title bar) is sufficiently on a display that exists now — displays get unplugged — and the size is
 * shrunk to fit that display. Otherwise only a fitting size is returned and the OS centres the window.
 */
export function restoreBounds(
  saved: WindowState | null,
  displays: DisplayAreas,
): { bounds: Partial<Rect> & { width: number; height: number }; maximized: boolean } {
  const fallbackArea = displays[0];
  const fit = (w: number, h: number, area: Rect | undefined) => ({
    width: Math.max(MIN_SIZE.width, Math.min(w, area?.width ?? w)),
    height: Math.max(MIN_SIZE.height, Math.min(h, area?.height ?? h)),
  });
  if (!saved) return { bounds: fit(DEFAULT_SIZE.width, DEFAULT_SIZE.height, fallbackArea), maximized: false };
  const titleStrip: Rect = { ...saved.bounds, height: Math.min(saved.bounds.height, TITLE_STRIP) };
  const home = displays.find((d) => {
    const o = overlap(titleStrip, d);
    return (
      o.width >= Math.min(MIN_VISIBLE.width, saved.bounds.width) &&
      o.height >= Math.min(MIN_VISIBLE.height, titleStrip.height)
    );
  });
  if (!home)
    return { bounds: fit(saved.bounds.width, saved.bounds.height, fallbackArea), maximized: saved.maximized };
  const size = fit(saved.bounds.width, saved.bounds.height, home);
  // Pull the window fully inside the display it mostly sits on, keeping its size.
  const x = Math.min(Math.max(saved.bounds.x, home.x), home.x + home.width - size.width);
  const y = Math.min(Math.max(saved.bounds.y, home.y), home.y + home.height - size.height);
  return { bounds: { x, y, ...size }, maximized: saved.maximized };
}

export async function loadWindowState(path: string): Promise<WindowState | null> {
  try {
    const parsed = stateSchema.safeParse(JSON.parse(await readFile(path, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    // Missing or unreadable: the window simply opens at the default size.
    return null;
  }
}

export function saveWindowState(path: string, state: WindowState): Promise<void> {
  return writeFileAtomic(path, `${JSON.stringify(state)}\n`);
}

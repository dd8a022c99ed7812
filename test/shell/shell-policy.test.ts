import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isAppUrl, type AppLocation } from '../../src/main/shell/app-location';
import {
  contentSecurityPolicy,
  hardenSession,
  withCspHeader,
  type SessionLike,
} from '../../src/main/shell/security';
import { isTrustedFrame, type FrameLike } from '../../src/main/shell/trusted-sender';
import { loadWindowState, MIN_SIZE, restoreBounds, saveWindowState } from '../../src/main/shell/window-state';

const indexPath = join(tmpdir(), 'app', 'out', 'renderer', 'index.html');
const fileLoc: AppLocation = { kind: 'file', indexPath };
const devLoc: AppLocation = { kind: 'dev', url: 'http://localhost:5173/' };
const appUrl = pathToFileURL(indexPath).href;

describe('trusted sender', () => {
  const top = (url: string): FrameLike => ({ url, parent: null });

  it('trusts only the main window top frame showing the app page', () => {
    const main = top(`${appUrl}#/search`);
    expect(isTrustedFrame(main, main, fileLoc)).toBe(true);
  });

  it('refuses another window, a sub-frame, a foreign page, a missing frame', () => {
    const main = top(appUrl);
    expect(isTrustedFrame(top(appUrl), main, fileLoc)).toBe(false); // same URL, other window
    const child: FrameLike = { url: appUrl, parent: main };
    expect(isTrustedFrame(child, child, fileLoc)).toBe(false);
    const navigated = top('https://evil.example/');
    expect(isTrustedFrame(navigated, navigated, fileLoc)).toBe(false);
    const otherFile = top(pathToFileURL(join(tmpdir(), 'evil.html')).href);
    expect(isTrustedFrame(otherFile, otherFile, fileLoc)).toBe(false);
    expect(isTrustedFrame(null, main, fileLoc)).toBe(false);
    expect(isTrustedFrame(main, null, fileLoc)).toBe(false);
  });

  it('in development trusts the dev server origin only', () => {
    const dev = top('http://localhost:5173/#/firms');
    expect(isTrustedFrame(dev, dev, devLoc)).toBe(true);
    const otherPort = top('http://localhost:5174/');
    expect(isTrustedFrame(otherPort, otherPort, devLoc)).toBe(false);
    expect(isAppUrl(appUrl, devLoc)).toBe(false);
    expect(isAppUrl('not a url', fileLoc)).toBe(false);
  });
});

describe('security settings', () => {
  it('the production CSP allows scripts from the app only, and matches index.html', async () => {
    const csp = contentSecurityPolicy();
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    const html = await readFile(join(import.meta.dirname, '../../src/renderer/index.html'), 'utf8');
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1] ?? '';
    expect(meta).toContain("script-src 'self'");
    for (const directive of meta.split(';').map((d) => d.trim()))
      expect(csp.split('; ')).toContain(directive);
    expect(contentSecurityPolicy({ url: 'http://localhost:5173' })).toContain('ws://localhost:5173');
  });

  it('the CSP header replaces whatever CSP the response had', () => {
    const out = withCspHeader(
      { 'content-security-policy': ['default-src *'], 'X-Other': 'a' },
      "default-src 'self'",
    );
    expect(out).toEqual({ 'X-Other': ['a'], 'Content-Security-Policy': ["default-src 'self'"] });
  });

  it('hardenSession installs the CSP and denies every permission', () => {
    type Fn = (...args: never[]) => unknown;
    const installed: Record<string, Fn> = {};
    const fake = {
      webRequest: { onHeadersReceived: (fn: Fn) => void (installed.headers = fn) },
      setPermissionRequestHandler: (fn: Fn) => void (installed.request = fn),
      setPermissionCheckHandler: (fn: Fn) => void (installed.check = fn),
      setDevicePermissionHandler: (fn: Fn) => void (installed.device = fn),
    } as unknown as SessionLike;
    const denied: string[] = [];
    hardenSession(fake, "default-src 'self'", (p) => denied.push(p));

    let headers: unknown;
    (installed.headers as (d: unknown, cb: (r: unknown) => void) => void)(
      { responseHeaders: {} },
      (r) => (headers = r),
    );
    expect(headers).toEqual({ responseHeaders: { 'Content-Security-Policy': ["default-src 'self'"] } });
    let granted: boolean | undefined;
    (installed.request as (wc: unknown, p: string, cb: (g: boolean) => void) => void)(
      {},
      'media',
      (g) => (granted = g),
    );
    expect(granted).toBe(false);
    expect(denied).toEqual(['media']);
    expect((installed.check as () => boolean)()).toBe(false);
    expect((installed.device as () => boolean)()).toBe(false);
  });
});

describe('window state', () => {
  const screen = { x: 0, y: 0, width: 1920, height: 1040 };
  const right = { x: 1920, y: 0, width: 1280, height: 1000 };

  it('restores a position that is on a display', () => {
    const r = restoreBounds({ bounds: { x: 100, y: 50, width: 1200, height: 800 }, maximized: true }, [
      screen,
    ]);
    expect(r).toEqual({ bounds: { x: 100, y: 50, width: 1200, height: 800 }, maximized: true });
  });

  it('drops a position on a display that is gone, keeping a size that fits', () => {
    const r = restoreBounds({ bounds: { x: 2000, y: 100, width: 1600, height: 900 }, maximized: false }, [
      screen,
    ]);
    expect(r.bounds).toEqual({ width: 1600, height: 900 });
    const small = restoreBounds(
      { bounds: { x: 2000, y: 100, width: 3000, height: 2000 }, maximized: false },
      [screen],
    );
    expect(small.bounds).toEqual({ width: 1920, height: 1040 });
  });

  it('pulls a window that hangs off its display back inside, and keeps the second display', () => {
    const r = restoreBounds({ bounds: { x: 1700, y: -10, width: 1000, height: 700 }, maximized: false }, [
      screen,
    ]);
    expect(r.bounds).toEqual({ x: 920, y: 0, width: 1000, height: 700 });
    const onRight = restoreBounds(
      { bounds: { x: 2000, y: 100, width: 1000, height: 700 }, maximized: false },
      [screen, right],
    );
    expect(onRight.bounds).toEqual({ x: 2000, y: 100, width: 1000, height: 700 });
  });

  it('refuses a window whose title bar is off screen', () => {
    const r = restoreBounds({ bounds: { x: 100, y: -700, width: 1000, height: 740 }, maximized: false }, [
      screen,
    ]);
    expect(r.bounds.x).toBeUndefined();
  });

  it('uses the default size the first time and never goes below the minimum', () => {
    expect(restoreBounds(null, [screen]).bounds).toEqual({ width: 1280, height: 820 });
    const tiny = restoreBounds({ bounds: { x: 0, y: 0, width: 10, height: 10 }, maximized: false }, [screen]);
    expect(tiny.bounds).toMatchObject({ width: MIN_SIZE.width, height: MIN_SIZE.height });
  });

  it('saves atomically and reads back; a damaged file means defaults', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'portolan-ws-'));
    const path = join(dir, 'window-state.json');
    expect(await loadWindowState(path)).toBeNull();
    const state = { bounds: { x: 5, y: 6, width: 1000, height: 700 }, maximized: false };
    await saveWindowState(path, state);
    expect(await loadWindowState(path)).toEqual(state);
    expect(await readdir(dir)).toEqual(['window-state.json']);
    await writeFile(path, '{"bounds":{"x":"a"}}');
    expect(await loadWindowState(path)).toBeNull();
  });
});

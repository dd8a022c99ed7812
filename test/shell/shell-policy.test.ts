import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CSP_PLACEHOLDER } from '@shared/csp';
import { isAppUrl, resolveAppLocation, type AppLocation } from '../../src/main/shell/app-location';
import { appFilePath, createAppProtocolHandler } from '../../src/main/shell/app-protocol';
import {
  contentSecurityPolicy,
  hardenSession,
  withCspHeader,
  type SessionLike,
} from '../../src/main/shell/security';
import { isTrustedFrame, type FrameLike } from '../../src/main/shell/trusted-sender';
import { loadWindowState, MIN_SIZE, restoreBounds, saveWindowState } from '../../src/main/shell/window-state';

const rendererDir = join(tmpdir(), 'app', 'out', 'renderer');
const fileLoc: AppLocation = { kind: 'app', rootDir: rendererDir };
const devLoc: AppLocation = { kind: 'dev', url: 'http://localhost:5173/' };
const appUrl = 'app://portolan/index.html';

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
    // The bundled page as a file:// URL is not the app any more, nor another page of the app's scheme.
    const asFile = top(pathToFileURL(join(rendererDir, 'index.html')).href);
    expect(isTrustedFrame(asFile, asFile, fileLoc)).toBe(false);
    for (const url of [
      'app://portolan/other.html',
      'app://evil/index.html',
      'app://portolan/index.html?x=1',
      'app://a:b@portolan/index.html',
    ]) {
      const frame = top(url);
      expect(isTrustedFrame(frame, frame, fileLoc), url).toBe(false);
    }
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

describe('where the page comes from', () => {
  const facts = {
    devBuild: true,
    packaged: false,
    devServerUrl: 'http://localhost:5173/',
    rendererDir,
  };

  it('a development build, unpackaged, loads the dev server on this machine', () => {
    expect(resolveAppLocation(facts)).toEqual({ kind: 'dev', url: 'http://localhost:5173/' });
    expect(resolveAppLocation({ ...facts, devServerUrl: 'http://127.0.0.1:5174' })).toEqual({
      kind: 'dev',
      url: 'http://127.0.0.1:5174/',
    });
  });

  it('a production or packaged build, or a dev address elsewhere, loads the bundled page over app://', () => {
    const bundled = { kind: 'app', rootDir: rendererDir };
    expect(resolveAppLocation({ ...facts, devBuild: false })).toEqual(bundled);
    expect(resolveAppLocation({ ...facts, packaged: true })).toEqual(bundled);
    expect(resolveAppLocation({ ...facts, devServerUrl: undefined })).toEqual(bundled);
    for (const url of ['https://evil.example/', 'http://10.0.0.8:5173/', 'file:///tmp/x.html', 'nonsense'])
      expect(resolveAppLocation({ ...facts, devServerUrl: url }), url).toEqual(bundled);
  });
});

describe('the app:// protocol', () => {
  it('names files inside the renderer build only', () => {
    expect(appFilePath('app://portolan/', rendererDir)).toBe(join(rendererDir, 'index.html'));
    expect(appFilePath('app://portolan/index.html#/search', rendererDir)).toBe(
      join(rendererDir, 'index.html'),
    );
    expect(appFilePath('app://portolan/assets/index-abc.js', rendererDir)).toBe(
      join(rendererDir, 'assets', 'index-abc.js'),
    );
    for (const url of [
      'app://portolan/../../etc/passwd',
      'app://portolan/%2e%2e/%2e%2e/etc/passwd',
      'app://portolan/assets/..%2f..%2f..%2fetc%2fpasswd',
      'app://portolan/assets%5c..%5c..%5csecret',
      'app://portolan/a%00.js',
      'app://other/index.html',
      'file:///etc/passwd',
      'app://portolan/%E0%A4%A',
    ]) {
      // `..` is resolved by the URL parse itself (app://portolan/etc/passwd is a file of the build).
      const path = appFilePath(url, rendererDir);
      expect(path === null || path.startsWith(rendererDir + '/'), url).toBe(true);
    }
    expect(appFilePath('app://portolan/../../etc/passwd', rendererDir)).toBe(
      join(rendererDir, 'etc', 'passwd'),
    );
    expect(appFilePath('app://other/index.html', rendererDir)).toBeNull();
    expect(appFilePath('app://portolan/assets/..%2fsecret', rendererDir)).toBeNull();
  });

  it('serves the build with the CSP header, refuses the rest without naming the disk', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'app-protocol-'));
    await writeFile(join(dir, 'index.html'), '<div id="root"></div>');
    await writeFile(join(tmpdir(), `outside-${process.pid}.txt`), 'secret');
    const read: string[] = [];
    const handler = createAppProtocolHandler({
      rootDir: dir,
      csp: contentSecurityPolicy(),
      fetchFile: async (path) => {
        read.push(path);
        return new Response(await readFile(path), { headers: { 'Content-Type': 'text/html' } });
      },
    });
    const page = await handler({ url: 'app://portolan/index.html', method: 'GET' });
    expect(page.status).toBe(200);
    expect(await page.text()).toBe('<div id="root"></div>');
    expect(page.headers.get('content-security-policy')).toBe(contentSecurityPolicy());
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('content-type')).toBe('text/html');

    const head = await handler({ url: 'app://portolan/', method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect((await handler({ url: 'app://portolan/index.html', method: 'POST' })).status).toBe(405);

    const missing = await handler({ url: 'app://portolan/nothing.js', method: 'GET' });
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe('Not found');
    const escape = await handler({
      url: `app://portolan/..%2f..%2foutside-${process.pid}.txt`,
      method: 'GET',
    });
    expect(escape.status).toBe(404);
    expect(read.every((p) => p.startsWith(dir))).toBe(true);
  });
});

describe('security settings', () => {
  it('one production CSP: scripts from the app only, written into index.html by the build', async () => {
    const csp = contentSecurityPolicy();
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    // Only directives a meta tag honours, so header and meta mean the same (framing: X-Frame-Options).
    expect(csp).not.toMatch(/frame-ancestors|report-uri|sandbox/);
    // The source page carries the placeholder the build fills from the same function (the built page's
    // meta is compared with the header end to end: test/e2e/built-app.e2e.test.ts).
    const html = await readFile(join(import.meta.dirname, '../../src/renderer/index.html'), 'utf8');
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1];
    expect(meta).toBe(CSP_PLACEHOLDER);
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

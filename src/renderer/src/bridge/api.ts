import type { PortolanApi } from '@shared/ipc/build-api';

let current: PortolanApi | null = null;

/**
 * Installs the bridge: main.tsx does, once, before the first render (the preload's `window.portolan`
 * in Electron, the web transport in the browser host); tests install a fake. Nothing reads the
 * bridge when a module loads, so any module can be imported before this is called.
 */
export function setApi(api: PortolanApi): void {
  current = api;
}

/** The one way the renderer reaches main. Read inside actions and effects, never at import time. */
export function getApi(): PortolanApi {
  if (!current) throw new Error('The bridge is not installed yet: setApi() comes first (see main.tsx).');
  return current;
}

import type { PortolanApi } from './build-api';

declare global {
  interface Window {
    /** Set by the Electron preload; absent in the browser test host until its transport installs it. */
    portolan?: PortolanApi;
  }
}

export {};

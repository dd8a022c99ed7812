import { buildApi, type PortolanApi } from '@shared/ipc/build-api';
import { CALL_CHANNELS } from '@shared/ipc/channels';
import { takeLaunchToken } from './launch-token';
import { withServiceOutcomes } from './service-outcomes';
import { createWebTransport } from './web-transport';

// `window.portolan` is declared in src/shared/ipc/window.d.ts.
/** The one way the renderer reaches main: the preload's bridge in Electron, HTTP in the browser host. */
export const api: PortolanApi = withServiceOutcomes(
  window.portolan ?? buildApi(CALL_CHANNELS, createWebTransport(takeLaunchToken())),
);

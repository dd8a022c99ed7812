import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { buildApi } from '@shared/ipc/build-api';
import { CALL_CHANNELS } from '@shared/ipc/channels';
import { App } from './app/app';
import { AppProviders } from './app/app-providers';
import { connectStores } from './app/connect-stores';
import { setApi } from './bridge/api';
import { exchangeLaunchToken } from './bridge/launch-token';
import { withServiceOutcomes } from './bridge/service-outcomes';
import { createWebTransport } from './bridge/web-transport';
import { watchCallProfile } from './features/watch';
import { useSessionStore } from './session';
import './theme/styles';
import './styles/app.css';

// `window.portolan` is declared in src/shared/ipc/window.d.ts: the preload's bridge in Electron; the
// browser host has none, and its pages reach main over HTTP instead.
// The browser host can go away under the window (stopped, crashed, frozen): its transport says so.
const webTransport = () =>
  createWebTransport({
    ready: exchangeLaunchToken(),
    onLink: (up) => useSessionStore.getState().reportHost(up),
  });
setApi(withServiceOutcomes(window.portolan ?? buildApi(CALL_CHANNELS, webTransport()), watchCallProfile));
connectStores();

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <AppProviders>
      <App />
    </AppProviders>
  </StrictMode>,
);

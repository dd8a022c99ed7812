import { contextBridge, ipcRenderer } from 'electron';
import { buildApi, type Transport } from '@shared/ipc/build-api';
import { CALL_CHANNELS, EVENT_CHANNELS, IPC_PREFIX } from '@shared/ipc/channels';

const events: readonly string[] = EVENT_CHANNELS;

const transport: Transport = {
  async invoke(channel, input) {
    try {
      return await ipcRenderer.invoke(`${IPC_PREFIX}${channel}`, input);
    } catch {
      // Only when main has no handler (e.g. while it restarts); keep the bridge's result shape.
      return { ok: false, error: { kind: 'Internal', message: 'Portolan did not answer this call.' } };
    }
  },
  subscribe(event, listener) {
    if (!events.includes(event)) throw new Error(`unknown event ${String(event)}`);
    // The IpcRendererEvent (and its `sender`) never reaches the page: only the payload is passed on.
    const handler = (_event: unknown, payload: unknown) => listener(payload);
    ipcRenderer.on(`${IPC_PREFIX}${event}`, handler);
    return () => {
      ipcRenderer.removeListener(`${IPC_PREFIX}${event}`, handler);
    };
  },
};

contextBridge.exposeInMainWorld('portolan', buildApi(CALL_CHANNELS, transport));

import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { buildApi, type Transport } from '@shared/ipc/build-api';
import { CALL_CHANNELS, EVENT_CHANNELS, FILE_DROP_CHANNEL, IPC_PREFIX } from '@shared/ipc/channels';

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
  droppedFiles: {
    // The path is read here from the dropped File and goes straight to main, which answers with a
    // handle: the page never sees it and cannot send a path of its own (a File it made has none).
    async importDropped(file) {
      let path = '';
      try {
        path = webUtils.getPathForFile(file);
      } catch {
        // Not a File Electron knows: main refuses the empty path in the analyst's words.
      }
      try {
        return await ipcRenderer.invoke(FILE_DROP_CHANNEL, path);
      } catch {
        return { ok: false, error: { kind: 'Internal', message: 'Portolan did not answer the drop.' } };
      }
    },
  },
};

contextBridge.exposeInMainWorld('portolan', buildApi(CALL_CHANNELS, transport));

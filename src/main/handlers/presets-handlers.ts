import { createPresetsStore, type PresetsStore } from '../presets';
import type { HandlerSlice } from './types';

export type PresetsChannel =
  | 'presets.list'
  | 'presets.save'
  | 'presets.rename'
  | 'presets.duplicate'
  | 'presets.delete'
  | 'presets.reorder'
  | 'presets.import'
  | 'presets.export'
  | 'presets.getLast'
  | 'presets.setLast';

/** Saved filters, kept in `<dataDir>/presets.json`. Inputs arrive already checked by the channel schemas. */
export function createPresetsHandlers(deps: {
  dataDir: string;
  store?: PresetsStore;
}): HandlerSlice<PresetsChannel> {
  const store = deps.store ?? createPresetsStore({ dataDir: deps.dataDir });
  return {
    'presets.list': async () => {
      const presets = await store.list();
      return { presets, setAside: await store.takeSetAside() };
    },
    'presets.save': (input) => store.save(input),
    'presets.rename': ({ id, name }) => store.rename(id, name),
    'presets.duplicate': ({ id }) => store.duplicate(id),
    'presets.delete': ({ id }) => store.remove(id),
    'presets.reorder': (input) =>
      store.move(input.id, 'direction' in input ? input.direction : { toIndex: input.toIndex }),
    'presets.import': ({ text }) => store.importText(text),
    'presets.export': (input) => store.exportText(input?.ids),
    'presets.getLast': () => store.getLast(),
    'presets.setLast': ({ filter }) => store.setLast(filter),
  };
}

export {
  createPresetsStore,
  PRESETS_FILE_NAME,
  type PresetsStore,
  type PresetsStoreOptions,
} from './presets-store';
export { PRESETS_FORMAT, PRESETS_VERSION } from './presets-format';

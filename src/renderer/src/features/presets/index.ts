export { PresetsPanel } from './presets-panel';
export { connectLastFilter, usePresetsStore } from './presets-store';

export { SettingsPage } from './settings-page';
export { useSettingsStore } from './settings-store';

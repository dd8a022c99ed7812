export { ExportButton } from './export-button';
export { viewFromGrid } from './grid-view';

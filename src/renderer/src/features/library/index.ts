export { LibraryPage } from './library-page';
export { connectLibraryStore, useLibraryStore } from './library-store';
export { DatasetGrid, type DatasetGridProps } from './dataset-grid';

export { LibraryPage } from './library-page';
export { connectLibraryStore, useLibraryStore } from './library-store';
export { DatasetGrid, type DatasetGridContext, type DatasetGridProps } from './dataset-grid';

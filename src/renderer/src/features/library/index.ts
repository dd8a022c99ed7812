export { LibraryPage } from './library-page';
export { connectLibraryStore, useLibraryStore } from './library-store';

export { FirmsPage } from './firms-page';
export { useFirmsStore } from './firms-store';

export { FirmsPage } from './firms-page';

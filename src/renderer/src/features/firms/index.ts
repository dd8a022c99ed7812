export { FirmsPage } from './firms-page';
export { useFirmsStore } from './firms-store';
export { connectResolvedFirmsStore, useResolvedFirmsStore } from './resolved-firms-store';
export { connectReviewStore, runReviewAction } from './review-store';

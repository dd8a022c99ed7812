export { AnalysisPage } from './analysis-page';
export { connectAnalysisStore } from './analysis-store';

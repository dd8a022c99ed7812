export { AnalysisPage } from './analysis-page';

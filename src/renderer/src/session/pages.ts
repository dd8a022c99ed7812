export { PAGES, isPageId, type PageId } from '@shared/pages';

export { firmSearchFilter, openShipmentsOf, type PartyRole } from './firm-shipments';
export { SearchPage } from './search-page';
export { connectSearchStore, runSearchCommand, useSearchStore } from './search-store';

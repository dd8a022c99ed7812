export { firmSearchFilter, openShipmentsOf, type PartyRole } from './firm-shipments';
export { SearchPage } from './search-page';
export { connectSearchStore, useSearchStore } from './search-store';

export { FieldMessages } from './field-messages';
export { FilterForm } from './filter-form';
export { FilterScroll } from './filter-scroll';
export {
  FIELD_LABELS,
  describeFormIssue,
  draftToFilter,
  validateDraft,
  type FilterDraft,
  type Validation,
  type ValidationExtra,
} from './filter-model';
export {
  createFilterStore,
  currentFilter,
  filterStore,
  useFilter,
  validateCurrent,
  type FilterStore,
} from './filter-store';
export { RunButton, RunReason } from './run-button';
export { useWholeRowsHeight, wholeRowsHeight, type RowSpan } from './whole-rows';

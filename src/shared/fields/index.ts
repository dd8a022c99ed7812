export * from './field-types';
export * from './value-text';
export * from './default-columns';
export * from './excel-serial';
export * from './number-display';
export * from './month-name';

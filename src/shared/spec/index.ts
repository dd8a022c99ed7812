export * from './field-labels';
export * from './filter';
export * from './issues';
export * from './operations';
export * from './records';
export * from './responses';
export * from './usage';

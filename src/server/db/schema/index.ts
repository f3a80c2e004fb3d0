export * from './platform';
export * from './students';

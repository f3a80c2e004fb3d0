export * from './platform';
export * from './students';
export * from './results';
export * from './ledger';
export * from './payments';
export * from './expenses';
export * from './mail';
export * from './online';

// levelkit/graal: the graal namespace alone, for apps that read one format (see src/entries/README.md).
export * from '../formats/graal/index.js';
export * from './common.js';

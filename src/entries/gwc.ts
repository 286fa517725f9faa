// levelkit/gwc: the gwc namespace alone, for apps that read one format (see src/entries/README.md).
export * from '../formats/gwc/index.js';
export * from './common.js';

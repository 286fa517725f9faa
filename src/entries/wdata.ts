// levelkit/wdata: the wdata namespace alone, for apps that read one format (see src/entries/README.md).
export * from '../formats/wdata/index.js';
export * from './common.js';

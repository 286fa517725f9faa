// levelkit/scan: the Node-only bulk scanning API (file system, worker threads). Kept out of the
// main entry so the browser bundle never pulls in `node:` modules.

export type { Depth, Inject } from './job.js';
export { recordLine } from './line.js';
export { checkRecord, RecordShapeError } from './record-check.js';
export { compareRecords, type ScanOptions, type ScanRecord, type ScanStats, scan, shardOf } from './scan.js';
export { ReportBuilder, reportOf, reportTable, type ScanReport } from './summary.js';

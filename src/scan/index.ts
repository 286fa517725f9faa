// levelkit/scan: the Node-only bulk scanning API (file system, worker threads). Kept out of the
// main entry so the browser bundle never pulls in `node:` modules.
export { scan, shardOf, compareRecords, type ScanOptions, type ScanRecord, type ScanStats } from './scan.js';
export { reportOf, reportTable, ReportBuilder, type ScanReport } from './summary.js';
export type { Depth, Inject } from './job.js';

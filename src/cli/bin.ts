// The `levelkit` executable (dist/cli.mjs). For `levelkit scan` it starts the scan's workers
// before this thread loads the CLI and the library, so the two start-ups run side by side (see
// prestartScanWorkers); everything else is main.ts, loaded after. Workers start only for a
// command line that scan-args.ts found valid as a whole: a mistake is reported with no thread made.
import { prestartScanWorkers } from '../scan/pool-node.js';
import { scanPrestart } from './scan-args.js';
import { tuneTieringForScan } from './tiering.js';

const argv = process.argv.slice(2);
const early = scanPrestart(argv);
if (early !== undefined) {
  // Before any worker exists: V8's flags are read by every isolate (cli/tiering.ts).
  tuneTieringForScan();
  prestartScanWorkers(early.count, early.memoryMb);
}
await import('./main.js');

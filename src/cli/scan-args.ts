// What the `levelkit` entry (bin.ts) reads of a scan's arguments before the CLI is loaded.
import { availableParallelism } from 'node:os';

/**
 * How many workers `levelkit scan …` will start, when that is plain from the arguments: the
 * command is scan, no help or version is asked, `--workers` is absent or a whole number in range, and no
 * `--worker-memory` changes their heap. Otherwise undefined, and the scan starts its own (the
 * options are checked properly by main.ts; this only decides whether to start early).
 */
export function scanWorkersAsked(args: readonly string[]): number | undefined {
  if (args[0] !== 'scan') return undefined;
  let workers = availableParallelism();
  for (let i = 1; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    if (a === '-h' || a === '--help' || a === '-V' || a === '--version' || a.startsWith('--worker-memory')) return undefined;
    const given = a === '--workers' ? args[++i] : a.startsWith('--workers=') ? a.slice('--workers='.length) : undefined;
    if (given === undefined) continue;
    if (!/^\d+$/.test(given) || Number(given) < 1 || Number(given) > 1024) return undefined;
    workers = Number(given);
  }
  return workers;
}

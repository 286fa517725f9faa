// One walked entry to the bytes a command works on, with the bookkeeping every command does the
// same way: links not followed and unrecognised files counted, unreadable or refused files
// reported as that file's failure. Returns undefined when there is nothing to work on.
import { errorRecord, loadFile } from '../scan/record.js';
import type { WalkEntry } from '../scan/walk.js';
import type { Reporter } from './report.js';

export function loadEntry(entry: WalkEntry, out: Reporter, maxBytes: number): { bytes: Uint8Array } | undefined {
  if (entry.kind === 'not-followed') {
    out.tally.notFollowed++;
    return undefined;
  }
  if (entry.kind === 'unreadable') {
    out.fail(errorRecord(entry.path, entry.failure.code, entry.failure.message));
    return undefined;
  }
  const loaded = loadFile(entry, { maxBytes });
  // 'zip' only comes back when archives are asked for (inputs.ts); here a zip is read as a level.
  if (loaded === 'unrecognised' || loaded === 'zip') {
    out.tally.unrecognised++;
    out.tick();
    return undefined;
  }
  if ('error' in loaded) {
    out.fail(loaded);
    return undefined;
  }
  return loaded;
}

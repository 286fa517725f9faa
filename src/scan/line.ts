// A record's JSON line. Workers send each record as the text of its line rather than as an
// object, and the text is kept beside the parsed record, so a consumer writing JSON lines (the
// CLI) writes the worker's text instead of serialising the record again. That moves work off the
// main thread, the scan's serial part: per record, the main thread's JSON.parse costs less than
// reading a structured clone and then JSON.stringify (~1.6 vs ~2.8 µs measured over the corpus's
// records), while the worker's JSON.stringify costs about what the clone's writing did.
import type { ScanRecord } from './job.js';
import { jsonText } from './json-text.js';

const lines = new WeakMap<ScanRecord, string>();

/** The record a worker sent as `line` (its JSON text), remembered with that text. */
export function recordOfLine(line: string): ScanRecord {
  const record = JSON.parse(line) as ScanRecord;
  lines.set(record, line);
  return record;
}

/**
 * `JSON.stringify(record)` with C1 controls and bidi overrides escaped (json-text.ts), as
 * `levelkit scan` writes each line: the worker's own text for a
 * record yielded by scan() (records are not to be changed by the consumer; a changed one would
 * still give its old text), otherwise serialised here.
 */
export function recordLine(record: ScanRecord): string {
  return lines.get(record) ?? jsonText(record);
}

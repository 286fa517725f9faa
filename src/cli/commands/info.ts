// `levelkit info`: a summary per level file, as text or as JSON lines (the bulk-scan format).

import { printable } from '../../scan/names.js';
import { type OkRecord, summaryRecord } from '../../scan/record.js';
import { walk } from '../../scan/walk.js';
import type { Command } from '../command.js';
import { loadEntry } from '../load.js';
import { decodeOptions, UsageError } from '../options.js';
import { readableValue, warningText } from '../readable.js';
import { stdoutReady } from '../stdout.js';

export const info: Command = {
  usage: 'levelkit info <file|folder…> [options]',
  summary: 'Prints format, version and summary of each level file; folders are walked.',
  options: ['json', 'strict', 'backend', 'inflate', 'encoding', 'max-bytes', 'max-zip-ratio', 'max-cells', 'max-inflated', 'limit', 'follow'],
  async run({ options, positionals }, out) {
    if (positionals.length === 0) throw new UsageError('info needs at least one file or folder');
    const decode = decodeOptions(options);
    for (const entry of walk(positionals, { follow: options.follow })) {
      if (!(await stdoutReady())) break;
      const loaded = loadEntry(entry, out, options.maxBytes);
      if (!loaded) continue;
      const record = summaryRecord(entry.path, loaded.bytes, decode);
      if ('error' in record) {
        out.fail(record);
        continue;
      }
      out.tally.add(record);
      out.ok(record, readable(record));
    }
    return out.finish();
  },
};

function readable(r: OkRecord): string {
  const rows: [string, string][] = [['format', `${r.format} (version ${printable(String(r.version))})`]];
  for (const [k, v] of Object.entries(r.summary)) rows.push([k, printable(readableValue(v))]);
  for (const w of r.warnings) rows.push(['warning', warningText(w)]);
  if (r.unchecked) rows.push(['not checked', `${r.unchecked.join(', ')} (the summary leaves the data deflated; levelkit scan --depth full checks it)`]);
  const width = Math.max(...rows.map(([k]) => k.length));
  return `${printable(r.file)}\n${rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}\n`).join('')}\n`;
}

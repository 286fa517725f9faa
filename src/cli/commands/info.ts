// `levelkit info`: a summary per level file, as text or as JSON lines (the bulk-scan format).
// Takes files, folders, zips of levels (each member listed), `archive.zip::member` and `-` (stdin).

import { printable } from '../../scan/names.js';
import { type OkRecord, summaryRecord } from '../../scan/record.js';
import type { Command } from '../command.js';
import { objectModelRows, withObjectModel } from '../info-objects.js';
import { checkInputs, inputName, inputOptions, levelInputs, takeLevel, withMember } from '../inputs.js';
import { decodeOptions } from '../options.js';
import { readableValue, warningText } from '../readable.js';
import { stdoutReady } from '../stdout.js';

export const info: Command = {
  usage: 'levelkit info <file|folder|zip|-…> [options]',
  summary: 'Prints format, version and summary of each level file; folders and zips are walked, - reads standard input, a.zip::path names one member.',
  options: ['json', 'strict', 'backend', 'inflate', 'encoding', 'max-bytes', 'max-zip-ratio', 'max-cells', 'max-inflated', 'limit', 'follow'],
  async run({ options, positionals }, out) {
    checkInputs(positionals, 'info');
    const decode = decodeOptions(options);
    for await (const input of levelInputs(positionals, inputOptions(options))) {
      if (!(await stdoutReady())) break;
      const level = takeLevel(input, out);
      if (!level) continue;
      const summarized = withMember(summaryRecord(level.path, level.bytes, decode), level.member);
      if ('error' in summarized) {
        out.fail(summarized);
        continue;
      }
      const record = withObjectModel(summarized, level.bytes, decode);
      out.tally.add(record);
      out.ok(record, readable(record));
    }
    return out.finish();
  },
};

function readable(r: OkRecord): string {
  const rows: [string, string][] = [['format', `${r.format} (version ${printable(String(r.version))})`]];
  for (const [k, v] of Object.entries(r.summary)) {
    if (k === 'objectModel' && (r.format === 'gwc' || r.format === 'gwz')) rows.push(...objectModelRows(v));
    else rows.push([k, printable(readableValue(v))]);
  }
  for (const w of r.warnings) rows.push(['warning', warningText(w)]);
  if (r.unchecked) rows.push(['not checked', `${r.unchecked.join(', ')} (the summary leaves the data deflated; levelkit scan --depth full checks it)`]);
  const width = Math.max(...rows.map(([k]) => k.length));
  return `${printable(inputName(r))}\n${rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}\n`).join('')}\n`;
}

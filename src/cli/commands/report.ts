// `levelkit report a.jsonl b.jsonl…`: merges the JSON lines of scans (shards of one job, or
// several runs) into the summary one scan over all of them prints, built by the same reportOf.
import * as fs from 'node:fs';
import { createInterface } from 'node:readline';
import type { ScanRecord } from '../../scan/scan.js';
import { ReportBuilder, reportTable } from '../../scan/summary.js';
import type { Command } from '../command.js';
import { UsageError } from '../options.js';

export const reportCommand: Command = {
  usage: 'levelkit report <records.jsonl…> [options]',
  summary: 'Merges the JSON lines of scans (e.g. shards) into one summary table; --report writes it as JSON.',
  options: ['report', 'force'],
  optionHelp: { report: 'write the merged summary as JSON to this file', force: 'overwrite the --report file if it exists' },
  async run({ options, positionals, raw }) {
    if (positionals.length === 0) throw new UsageError('report needs at least one .jsonl file written by levelkit scan');
    const reportFile = raw.report as string | undefined;
    if (reportFile && !options.force && fs.existsSync(reportFile)) throw new UsageError(`${reportFile} exists (--force overwrites it)`);
    const b = new ReportBuilder();
    for (const file of positionals) {
      let stream: fs.ReadStream;
      try {
        fs.accessSync(file, fs.constants.R_OK);
        stream = fs.createReadStream(file);
      } catch (e) {
        throw new UsageError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      }
      let n = 0;
      for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) {
        n++;
        if (!line.trim()) continue;
        let rec: ScanRecord;
        try {
          rec = JSON.parse(line) as ScanRecord;
        } catch {
          throw new UsageError(`${file}:${n}: not a JSON line (is it the output of levelkit scan?)`);
        }
        if (typeof rec !== 'object' || rec === null || typeof rec.path !== 'string') throw new UsageError(`${file}:${n}: not a scan record (no path)`);
        b.add(rec);
      }
    }
    const summary = b.build();
    if (reportFile) fs.writeFileSync(reportFile, `${JSON.stringify(summary, null, 2)}\n`);
    process.stdout.write(reportTable(summary));
    return 0;
  },
};

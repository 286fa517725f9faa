// `levelkit report a.jsonl b.jsonl…`: merges the JSON lines of scans (shards of one job, or
// several runs) into the summary one scan over all of them prints, built by the same reportOf.
// Every line is checked against the record shape scan writes (src/scan/record-check.ts) before
// it is counted: a bad line stops the merge (exit 1) naming file and line, or with --lenient is
// skipped and counted, so a total is never silently wrong.
import * as fs from 'node:fs';
import { jsonText } from '../../scan/json-text.js';
import { pathBytes, printable } from '../../scan/names.js';
import { checkRecord, RecordShapeError } from '../../scan/record-check.js';
import type { ScanRecord } from '../../scan/scan.js';
import { ReportBuilder, reportTable } from '../../scan/summary.js';
import { namedOutput, writeNew } from '../../scan/write.js';
import type { Command } from '../command.js';
import { OPTIONS, UsageError } from '../options.js';
import { checkNewFile, STDOUT } from '../outputs.js';
import { RecordsCsv } from '../records-csv.js';
import { type ListKind, RecordList } from '../report-list.js';
import { writeStdout } from '../stdout.js';

/** Longest line read: a record is a few hundred bytes; a file without newlines must not fill memory. */
const MAX_LINE_BYTES = 64 << 20;
/** Skipped lines reported one by one with --lenient; past this only the count is printed. */
const LINES_SHOWN = 20;

export const reportCommand: Command = {
  usage: 'levelkit report <records.jsonl…> [options]',
  summary: 'Merges the JSON lines of scans (e.g. shards) into one summary table; --report writes it as JSON.',
  options: ['report', 'list', 'csv', 'force', 'lenient'],
  optionHelp: {
    report: 'write the merged summary as JSON to this file (- writes it to stdout, the table to stderr)',
    force: 'overwrite the --report file if it exists',
  },
  async run({ options, positionals, raw }) {
    if (positionals.length === 0) throw new UsageError('report needs at least one .jsonl file written by levelkit scan');
    const reportFile = raw.report as string | undefined;
    const lenient = raw.lenient === true;
    const listKind = raw.list as string | undefined;
    if (listKind !== undefined && !OPTIONS.list.choices.includes(listKind))
      throw new UsageError(`--list must be ${OPTIONS.list.choices.join(', ')}; got '${listKind}'`);
    if (listKind !== undefined && raw.csv === true) throw new UsageError('--list and --csv both write to stdout: give one');
    if (reportFile === STDOUT && (listKind !== undefined || raw.csv === true))
      throw new UsageError('--report - and --list/--csv both write to stdout: give one');
    const list = listKind === undefined ? undefined : new RecordList(listKind as ListKind, writeStdout);
    const csv = raw.csv === true ? new RecordsCsv() : undefined;
    // Checked before reading (lstat: a dangling link is refused too, never followed to create its target).
    if (reportFile !== undefined && reportFile !== STDOUT) checkNewFile('--report', reportFile, options.force);
    const b = new ReportBuilder();
    if (lenient) b.countSkipped();
    let skipped = 0;
    for (const file of positionals) {
      let stream: fs.ReadStream;
      try {
        fs.accessSync(file, fs.constants.R_OK);
        stream = fs.createReadStream(file);
      } catch (e) {
        throw new UsageError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      }
      let n = 0;
      for await (const line of lines(stream, MAX_LINE_BYTES)) {
        n++;
        if (line === null) {
          stream.destroy();
          process.stderr.write(`levelkit report: ${printable(file)}:${n}: line longer than ${MAX_LINE_BYTES} bytes (is it the output of levelkit scan?)\n`);
          return 1;
        }
        if (!line.trim()) continue;
        const problem = addLine(b, line, (rec) => {
          list?.add(rec);
          csv?.add(rec);
        });
        if (problem === undefined) continue;
        const where = `${printable(file)}:${n}: ${printable(problem)}`;
        if (!lenient) {
          stream.destroy();
          process.stderr.write(`levelkit report: ${where} (--lenient skips bad lines)\n`);
          return 1;
        }
        b.skip();
        if (++skipped <= LINES_SHOWN) process.stderr.write(`levelkit report: skipped ${where}\n`);
      }
    }
    if (skipped > LINES_SHOWN) process.stderr.write(`levelkit report: skipped ${skipped} lines in all (${skipped - LINES_SHOWN} not shown)\n`);
    const summary = b.build();
    const json = `${jsonText(summary, 2)}\n`;
    let kept = false;
    list?.finish();
    if (csv) for (const text of csv.lines()) writeStdout(text);
    const table = reportTable(summary, b.examples());
    if (reportFile === STDOUT) {
      // The JSON is the data on stdout; the table is for the person watching.
      writeStdout(json);
      process.stderr.write(table);
    } else {
      if (reportFile && !writeNew(namedOutput(pathBytes(reportFile)), Buffer.from(json), options.force)) {
        process.stderr.write(`levelkit report: --report: OUTPUT_EXISTS: ${printable(reportFile)} appeared while merging; it was kept\n`);
        kept = true;
      }
      // With a listing or CSV on stdout, the table moves to stderr, as a scan's does.
      if (list || csv) process.stderr.write(table);
      else writeStdout(table);
    }
    // Like a scan with failed files: the summary stands, and the exit code says something was left out.
    return skipped || kept ? 2 : 0;
  },
};

/** Adds the record on `line` to `b` (and hands it to `also`); returns why it is not a record (nothing added) or undefined. */
function addLine(b: ReportBuilder, line: string, also: (rec: ScanRecord) => void): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return 'not a JSON line (is it the output of levelkit scan?)';
  }
  let rec: ScanRecord;
  try {
    rec = checkRecord(value);
    b.add(rec);
    also(rec);
  } catch (e) {
    if (e instanceof RecordShapeError || e instanceof RangeError) return `not a scan record: ${e.message}`;
    throw e;
  }
  return undefined;
}

/**
 * The lines of `stream` (UTF-8, split at LF, a CR before it dropped), or null in place of a line
 * longer than `max` bytes, after which reading stops.
 */
async function* lines(stream: AsyncIterable<Buffer>, max: number): AsyncGenerator<string | null> {
  let parts: Buffer[] = [];
  let size = 0;
  const text = (b: Buffer) => b.toString('utf8', 0, b.length && b[b.length - 1] === 0x0d ? b.length - 1 : b.length);
  for await (const chunk of stream) {
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl >= 0; nl = chunk.indexOf(0x0a, start)) {
      if (size + nl - start > max) {
        yield null;
        return;
      }
      parts.push(chunk.subarray(start, nl));
      yield text(Buffer.concat(parts));
      parts = [];
      size = 0;
      start = nl + 1;
    }
    size += chunk.length - start;
    if (size > max) {
      yield null;
      return;
    }
    parts.push(chunk.subarray(start));
  }
  if (size) yield text(Buffer.concat(parts));
}

// `levelkit query <index> "<SQL>"`: SQL over an archive index (`scan --index`), read-only; the SQL
// may also come from standard input (`-`) or a file (`--file`, query-sql.ts). Rows as
// an aligned table, or --json (one object per line), or --csv, written as DuckDB makes them (see
// query-output.ts). A broken part is one line naming it; so is a folder that is not an index.
import { EngineMissing } from '../../archive-index/engine.js';
import { BrokenPart, NotAnIndex } from '../../archive-index/parts.js';
import { IndexQuery, QueryError } from '../../archive-index/query.js';
import { printable } from '../../scan/names.js';
import type { Command } from '../command.js';
import { UsageError } from '../options.js';
import { csvOutput, jsonLinesOutput, type RowsOutput, TableOutput } from '../query-output.js';
import { sqlOf } from '../query-sql.js';
import { stdoutReady, writeStdout } from '../stdout.js';

export const queryCommand: Command = {
  usage: 'levelkit query <index folder> ("<SQL>" | - | --file q.sql) [--json|--csv]',
  summary: 'Runs a read-only SQL query over an archive index written by scan --index (tables: levelkit schema).',
  options: ['json', 'csv', 'file'],
  optionHelp: {
    json: "one JSON object per row, one per line; JSON columns as JSON, not strings: summary, fields and options as read (by name or *), and DuckDB's JSON type (x::JSON, x->'k')",
  },
  async run({ options, positionals, raw }) {
    if (positionals.length === 0 || positionals.length > 2) throw new UsageError('query needs the index folder and one SQL query (quote it)');
    if (options.json && raw.csv) throw new UsageError('--json and --csv: choose one');
    const [dir, given] = positionals as [string, string | undefined];
    const sql = await sqlOf(given, typeof raw.file === 'string' ? raw.file : undefined);
    let index: IndexQuery;
    try {
      index = await IndexQuery.open(dir);
    } catch (e) {
      if (e instanceof NotAnIndex) return fail(e.message);
      if (e instanceof BrokenPart) return fail(`broken index part: ${e.message}`);
      if (e instanceof EngineMissing) return fail(e.message);
      throw e;
    }
    try {
      const answer = await index.stream(sql);
      const out: RowsOutput = options.json
        ? jsonLinesOutput(answer.columns, answer.json)
        : raw.csv
          ? csvOutput(answer.columns)
          : new TableOutput(answer.columns, answer.numeric);
      // Each batch written before the next is asked for, waiting while the pipe is full: memory holds one batch, and a reader that leaves stops the query.
      for await (const batch of answer) if (!(await write(out.rows(batch)))) return 0;
      await write(out.end());
      return 0;
    } catch (e) {
      if (e instanceof QueryError) return fail(e.message);
      if (e instanceof BrokenPart) return fail(`broken index part: ${e.message}`);
      throw e;
    } finally {
      index.close();
    }
  },
};

/** Writes `text`; resolves false once standard output's reader has gone (`| head`). */
async function write(text: string): Promise<boolean> {
  if (text) writeStdout(text);
  return stdoutReady();
}

function fail(message: string): number {
  process.stderr.write(`levelkit query: ${printable(message)}\n`);
  return 1;
}

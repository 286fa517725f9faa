// `levelkit schema`: the archive index's tables and columns (src/archive-index/schema.ts), as text or --json.
import { FAMILIES_VIEW } from '../../archive-index/family-view.js';
import { SCHEMA_VERSION, TABLES } from '../../archive-index/schema.js';
import type { Command } from '../command.js';
import { UsageError } from '../options.js';
import { writeStdout } from '../stdout.js';

export const schemaCommand: Command = {
  usage: 'levelkit schema [--json]',
  summary: 'Prints the tables and columns of the archive index (scan --index, query), with its schema version.',
  options: ['json'],
  optionHelp: { json: 'the schema as one JSON object' },
  run({ options, positionals }) {
    if (positionals.length) throw new UsageError('schema takes no arguments');
    if (options.json) {
      writeStdout(`${JSON.stringify({ version: SCHEMA_VERSION, tables: TABLES, views: [FAMILIES_VIEW] })}\n`);
      return 0;
    }
    let s = `levelkit index schema, version ${SCHEMA_VERSION}\n`;
    for (const t of [...TABLES, FAMILIES_VIEW]) {
      s += `\n${t.name}: each row is ${t.row}${'doc' in t ? ` (${t.doc})` : ''}\n`;
      const w = Math.max(...t.columns.map((c) => c.name.length));
      for (const c of t.columns) s += `  ${c.name.padEnd(w)}  ${c.type.padEnd(9)}  ${c.doc}\n`;
    }
    writeStdout(s);
    return 0;
  },
};

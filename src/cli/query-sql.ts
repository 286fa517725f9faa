// Where `levelkit query` takes its SQL from, as sqlite3 and duckdb allow: the argument, standard
// input (`-`), or a file (`--file q.sql`). A script kept in a file is read like any input: a
// regular file only, its size checked before it is read; standard input is read to its end but
// never past the same limit.
import { printable } from '../scan/names.js';
import { readFileSafe } from '../scan/read.js';
import { UsageError } from './options.js';

/** The largest SQL text read: far past any query a person writes, far below what could hurt. */
export const MAX_SQL_BYTES = 1 << 20;

/** The SQL the user gave: `given` (the second positional, `-` for standard input) or `--file`. UsageError for none, both, empty, unreadable or too long. */
export async function sqlOf(given: string | undefined, file: string | undefined, stdin: AsyncIterable<Buffer> = process.stdin): Promise<string> {
  if (given !== undefined && file !== undefined) throw new UsageError('the SQL is given twice (an argument and --file): give one');
  if (given === undefined && file === undefined)
    throw new UsageError('query needs the index folder and one SQL query (quote it, or give - to read it from standard input, or --file q.sql)');
  const text = file !== undefined ? fromFile(file) : given === '-' ? await fromStdin(stdin) : given!;
  if (text.trim() === '') throw new UsageError(`the SQL ${file !== undefined ? `in ${printable(file)} ` : given === '-' ? 'on standard input ' : ''}is empty`);
  return text;
}

function fromFile(file: string): string {
  const read = readFileSafe(Buffer.from(file), { maxBytes: MAX_SQL_BYTES });
  if ('bytes' in read) return utf8(read.bytes, `--file ${printable(file)}`);
  const why = 'failure' in read ? read.failure.message : 'not read';
  throw new UsageError(`--file ${printable(file)}: ${why}`);
}

async function fromStdin(stdin: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  let n = 0;
  try {
    for await (const chunk of stdin) {
      n += chunk.length;
      if (n > MAX_SQL_BYTES) throw new UsageError(`the SQL on standard input is longer than ${MAX_SQL_BYTES} bytes`);
      chunks.push(chunk);
    }
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`cannot read standard input: ${(e as Error).message}`);
  }
  return utf8(Buffer.concat(chunks, n), 'standard input');
}

/** The bytes as UTF-8 text; a byte sequence that is not UTF-8 is refused rather than read as U+FFFD inside a string literal. */
function utf8(bytes: Uint8Array, where: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new UsageError(`the SQL in ${where} is not UTF-8 text`);
  }
}

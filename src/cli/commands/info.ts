// `levelkit info <file…> [--json] [--backend auto|wasm|js] [--inflate auto|native|pako] [--strict]`
// A readable summary per file, or one JSON object per line per file (the bulk-scan format).
import { readFileSync } from 'node:fs';
import { DecodeError, decode, summarize, type Backend, type InflaterChoice } from '../../index.js';
import { parseArgs, UsageError } from '../args.js';
import { expandPaths } from '../../scan/walk.js';

export const usage = 'levelkit info <file|folder…> [--json] [--backend auto|wasm|js] [--inflate auto|native|pako] [--encoding <label>] [--strict]';

export async function run(argv: string[]): Promise<number> {
  const { flags, positionals } = parseArgs(argv, { bool: ['--json', '--strict'], valued: ['--backend', '--inflate', '--encoding'] });
  if (positionals.length === 0) throw new UsageError('info needs at least one file');
  const backend = (flags.get('--backend') ?? 'auto') as Backend;
  if (!['auto', 'wasm', 'js'].includes(backend)) throw new UsageError(`--backend must be auto, wasm or js`);
  const inflate = (flags.get('--inflate') ?? 'auto') as InflaterChoice;
  if (!['auto', 'native', 'pako'].includes(inflate)) throw new UsageError(`--inflate must be auto, native or pako`);
  const encoding = flags.get('--encoding') as string | undefined;
  if (encoding !== undefined && !isEncodingLabel(encoding)) throw new UsageError(`--encoding: unknown code page '${encoding}' (a WHATWG label such as windows-1250)`);
  const json = flags.has('--json');
  let failed = 0;
  const { files, skipped } = expandPaths(positionals);
  for (const file of files) {
    const line = infoFor(file, { backend, inflate, strict: flags.has('--strict'), ...(encoding ? { encoding } : {}) });
    if ('error' in line) failed++;
    process.stdout.write(json ? JSON.stringify(line) + '\n' : readable(line));
  }
  if (skipped && !json) process.stderr.write(`(${skipped} files under the given folders are not in a format levelkit knows; skipped)\n`);
  return failed ? 2 : 0;
}

type InfoLine =
  | { file: string; format: string; version: string | number; summary: object; warnings: { code: string; message: string; offset: number | null }[] }
  | { file: string; error: { code: string; offset: number | null; path: string; message: string } };

export function infoFor(file: string, opts: object): InfoLine {
  try {
    const value = decode(readFileSync(file), { sections: 'summary', ...opts });
    const { version, summary } = summarize(value);
    return { file, format: value.format, version, summary, warnings: value.warnings.map(({ code, message, offset }) => ({ code, message, offset: offset ?? null })) };
  } catch (e) {
    if (e instanceof DecodeError) return { file, error: e.toJSON() };
    const err = e as NodeJS.ErrnoException;
    if (err.code && err.syscall) return { file, error: { code: 'IO', offset: null, path: '', message: err.message } };
    // A decoder bug must not cost a bulk scan the rest of its files: report it as this file's
    // failure (exit 2) with a code that says it is ours, not the file's.
    return { file, error: { code: 'INTERNAL', offset: null, path: '', message: `levelkit bug: ${String((e as Error)?.stack ?? e)}` } };
  }
}

function isEncodingLabel(label: string): boolean {
  try {
    new TextDecoder(label);
    return true;
  } catch {
    return false;
  }
}

function readable(line: InfoLine): string {
  if ('error' in line) return `${line.file}\n  error ${line.error.code}: ${line.error.message}\n\n`;
  const rows: [string, string][] = [['format', `${line.format} (version ${line.version})`]];
  for (const [k, v] of Object.entries(line.summary)) rows.push([k, typeof v === 'object' ? JSON.stringify(v) : String(v)]);
  for (const w of line.warnings) rows.push(['warning', `${w.code}${w.offset === null ? '' : ` at 0x${w.offset.toString(16)}`}: ${w.message}`]);
  const width = Math.max(...rows.map(([k]) => k.length));
  let s = `${line.file}\n`;
  for (const [k, v] of rows) s += `  ${k.padEnd(width)}  ${v}\n`;
  return s + '\n';
}

// The options every command shares, parsed once with node:util parseArgs and validated where
// they are resolved, so an option means the same on every command and an error names it.
import { parseArgs } from 'node:util';
// Only plain data at run time, so the `levelkit` entry checks a scan's command line before it
// loads the library and starts workers (cli/bin.ts).
import { DEFAULT_LIMITS, LIMIT_NAMES } from '../core/default-limits.js';
import { closest } from '../core/suggest.js';
import type { Backend, DecodeOptions, InflaterChoice, Limits } from '../index.js';
import type { Command } from './command.js';

/** Bad usage: printed as one line with the command's usage, exit 1. */
export class UsageError extends Error {}

export interface OptionSpec {
  type: 'boolean' | 'string';
  short?: string;
  /** May be given more than once (each value kept). */
  multiple?: boolean;
  /** What the value looks like, for --help (a command may say it better: Command.optionValue). */
  value?: string;
  /** The only values taken (for --help and shell completion, when there is no `value`). */
  choices?: readonly string[];
  help: string;
}

/** Default --max-bytes: the library's own cap on one inflated block, so a file read whole never exceeds what a decode would accept anyway. */
export const DEFAULT_MAX_BYTES = DEFAULT_LIMITS.maxInflatedBytes;

export const OPTIONS = {
  json: { type: 'boolean', help: 'one JSON object per line on stdout, one per file; messages and the tally stay on stderr' },
  strict: { type: 'boolean', help: 'treat tolerated faults (warnings) as errors' },
  backend: { type: 'string', choices: ['auto', 'wasm', 'js'], help: 'kernels for the hot loops (default auto: WASM when it loads, else TypeScript)' },
  inflate: { type: 'string', choices: ['auto', 'native', 'wasm', 'pako'], help: 'zlib implementation (default auto: node:zlib)' },
  encoding: { type: 'string', value: 'label', help: 'code page of text fields, a WHATWG label such as windows-1250 (default windows-1252)' },
  'max-bytes': {
    type: 'string',
    value: 'n[k|M|G]',
    help: `largest file read, in bytes (k, M, G: ×1024ⁿ); a larger one is a LIMIT_EXCEEDED error (default ${DEFAULT_MAX_BYTES / 2 ** 20}M)`,
  },
  'max-zip-ratio': {
    type: 'string',
    value: 'n',
    help: `bytes a zip (or GWZ) may inflate, all members together, as a multiple of its own size (at least 1 MiB); a member past it is a LIMIT_EXCEEDED error and is not inflated (default ${DEFAULT_LIMITS.maxZipRatio})`,
  },
  'max-cells': {
    type: 'string',
    value: 'n[k|M|G]',
    help: `largest number of tile-grid cells per level, all layers together (limits.maxGridCells; default ${DEFAULT_LIMITS.maxGridCells}, DDNet's own bound)`,
  },
  'max-inflated': {
    type: 'string',
    value: 'n[k|M|G]',
    help: `per-file memory budget: bytes inflated (and expanded) from one file's compressed blocks together (limits.maxTotalInflatedBytes; default ${DEFAULT_LIMITS.maxTotalInflatedBytes / 2 ** 30}G)`,
  },
  limit: {
    type: 'string',
    multiple: true,
    value: 'name=n[k|M|G]',
    help: `set one decode cap by name, repeatable: ${LIMIT_NAMES.map((n) => `${n} (default ${DEFAULT_LIMITS[n]})`).join(', ')}`,
  },
  follow: { type: 'boolean', help: 'walk into symbolic links to folders (each folder once, so loops end)' },
  force: { type: 'boolean', help: 'overwrite outputs that already exist (default: refuse, write nothing for that file)' },
  'skip-existing': { type: 'boolean', help: 'keep outputs that already exist and skip their inputs (counted as skipped), to resume a run' },
  out: { type: 'string', short: 'o', value: 'file|dir', help: 'output file or folder' },
  to: { type: 'string', choices: ['nw', 'graal'], help: 'output format (default: from the output name)' },
  version: {
    type: 'string',
    value: 'header',
    help: 'binary header to write: GR-V1.00…GR-V1.05, Z3-V1.03, Z3-V1.04 (default: GR-V1.03, or GR-V1.04 for a level with heights)',
  },
  workers: { type: 'string', value: 'n', help: 'worker threads decoding in parallel, at most 4 × cores and never more than files (default: available cores)' },
  'worker-memory': {
    type: 'string',
    value: 'MB',
    help: "heap limit of each worker in MiB (16 or more); a file whose decode needs more is a LIMIT_EXCEEDED record and its worker is replaced (default: the process's --max-old-space-size, else half the machine's memory shared by the workers, 256 MiB to 4 GiB)",
  },
  timeout: {
    type: 'string',
    value: 'seconds',
    help: 'time limit per file, × its size in 8 MiB units above 8 MiB; a slower file is a TIMEOUT record and its worker is replaced (default 5)',
  },
  depth: { type: 'string', choices: ['cheap', 'full'], help: 'how much to decode: cheap = the summary sections only, full = every section (default cheap)' },
  all: { type: 'boolean', help: 'also list files of no known format, as records with format null' },
  quiet: { type: 'boolean', short: 'q', help: 'no progress and no summary table on stderr' },
  report: { type: 'string', value: 'file.json', help: 'write the summary as JSON to this file' },
  lenient: {
    type: 'boolean',
    help: 'skip lines that are not valid scan records, counting them (skippedLines in the summary), instead of stopping at the first (exit 1)',
  },
  index: {
    type: 'string',
    value: 'dir',
    help: 'also write the archive index (Parquet tables: files, levels, layers, tiles, objects, texts, images, warnings, and findings with --check) into this folder; implies --depth full; written by levelkit itself, without DuckDB (levelkit query, diff of two indexes and --resume need @duckdb/node-api; levelkit schema lists the columns)',
  },
  resume: {
    type: 'boolean',
    help: 'with --index: skip files whose latest rows there were made from the same path, member, size and modification time with the same options (depth, limits, --strict, --encoding, --check); decode the rest again',
  },
  check: { type: 'boolean', help: "with --index: run levelkit check's rules on every level and write what they find into the findings table" },
  list: {
    type: 'string',
    choices: ['errors', 'warnings', 'duplicates'],
    help: 'list the files behind a count on stdout, one line each (duplicates: each group of files with the same bytes or main grid); the table goes to stderr',
  },
  csv: {
    type: 'boolean',
    help: 'CSV on stdout: report, the records (fixed columns, then every summary field by dotted name; the table goes to stderr); query, the rows',
  },
  file: { type: 'string', value: 'q.sql', help: 'query: read the SQL from this file (or give - for standard input)' },
  sort: { type: 'boolean', help: 'records sorted by path and member (held until the scan ends), for diffs between runs' },
  shard: {
    type: 'string',
    value: 'k/n|auto/n',
    help: 'only share k of n (0-based, by a hash of the path; archives whole); auto reads k from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID',
  },
  scale: { type: 'string', value: 'n', help: 'pixels per tile, 1…64 (default: fit the longest side in 2048 px, at most 16)' },
  layer: {
    type: 'string',
    value: 'main|all|n',
    help: 'grid to draw: the main grid (default), all layers composited, or layer n (in the order --json lists them)',
  },
  sheet: { type: 'string', value: 'sheet.png', help: 'also draw every level onto one contact sheet' },
  png: { type: 'string', value: 'file.png', help: 'also draw the new level with the changed cells highlighted, as PNG' },
  text: { type: 'boolean', help: 'with --png: print the text diff too (--png alone writes only the picture)' },
  time: { type: 'string', value: 'seconds', help: 'the moment animated Teeworlds quads and colours (envelopes) are drawn at, 0…86400 (default 0)' },
  tileset: { type: 'string', value: 'pics1.png', help: 'Graal levels: draw real tiles from this tileset (PNG, the 2048 × 512 pics1.png layout)' },
  graphics: {
    type: 'string',
    value: 'folder',
    help: "WWD levels: draw real tiles from this folder of tile images extracted from your copy of the game (PNG or BMP, found by the level's image set names)",
  },
  sarif: { type: 'boolean', help: 'the findings as one SARIF 2.1.0 document on stdout (what code-scanning services read)' },
  'list-rules': { type: 'boolean', help: 'print every rule with its severity, one line of why and its source, then exit' },
  rule: { type: 'string', multiple: true, value: 'id', help: 'run only this rule, repeatable (levelkit check --list-rules lists them)' },
  'skip-rule': { type: 'string', multiple: true, value: 'id', help: 'do not run this rule, repeatable' },
  'fail-on': {
    type: 'string',
    choices: ['error', 'warning', 'note', 'never'],
    help: 'exit 1 when a finding is at least this severe (default error); a file that cannot be decoded is an error of rule decode; never: exit 0 whatever is found',
  },
  exclude: {
    type: 'string',
    multiple: true,
    value: 'glob',
    help: "leave out files whose path (a zip member's: zip/member) ends in what this glob matches ('*.bak', 'vendor/**'; '/' first: the whole path), repeatable",
  },
  'max-per-rule': {
    type: 'string',
    value: 'n',
    help: "report one rule's findings in one file as its first n and a count of the rest (default 20; all: every one)",
  },
  help: { type: 'boolean', short: 'h', help: 'this help' },
} satisfies Record<string, OptionSpec>;

export type OptionName = keyof typeof OPTIONS;

/** Options as the commands use them: validated, with defaults filled in. */
export interface Options {
  json: boolean;
  strict: boolean;
  backend: Backend;
  inflate: InflaterChoice;
  encoding: string | undefined;
  maxBytes: number;
  /** --max-zip-ratio when given (the library's default applies otherwise). */
  maxZipRatio: number | undefined;
  /** Decode caps given with --max-cells, --max-inflated and --limit (validated; the rest default). */
  limits: Partial<Limits>;
  follow: boolean;
  force: boolean;
  help: boolean;
  out: string | undefined;
  to: string | undefined;
  version: string | undefined;
  scale: string | undefined;
  layer: string | undefined;
  sheet: string | undefined;
}

export interface Parsed {
  options: Options;
  positionals: string[];
  /** Every option as given (strings and booleans), for command-specific options validated by the command. */
  raw: Record<string, string | boolean | string[] | undefined>;
}

/** What an option looks like on the command line: one or two dashes, a name with no space or '=', then '=value' or nothing. */
const OPTION_SHAPED = /^--?[^\s=]+(?:=[\s\S]*)?$/;

/** Parses argv for a command that accepts `names`; anything else is a UsageError. */
export function parseCommandArgs(argv: string[], names: readonly OptionName[]): Parsed {
  const specs: Record<string, { type: 'boolean' | 'string'; short?: string }> = {};
  for (const n of [...names, 'help' as const]) {
    const o: OptionSpec = OPTIONS[n];
    specs[n] = { type: o.type, ...(o.short ? { short: o.short } : {}), ...(o.multiple ? { multiple: true } : {}) };
  }
  // An argument that starts with '-' but is not shaped like an option (`-x`, `--name`,
  // `--name=value`) is never one: SQL that opens with a `-- comment` line, as the README's recipes
  // do, or a name such as `- draft.map`. parseArgs would refuse it as an unknown option, so it is
  // held aside under a placeholder no argument can spell (a NUL) and given back afterwards.
  const held: string[] = [];
  const args = argv.map((a) => (a.startsWith('-') && a !== '-' && a !== '--' && !OPTION_SHAPED.test(a) ? `\0${held.push(a) - 1}` : a));
  const back = (v: string): string => (v.startsWith('\0') ? held[Number(v.slice(1))]! : v);
  let values: Record<string, string | boolean | string[] | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args, options: specs, allowPositionals: true, strict: true }));
    positionals = positionals.map(back);
    for (const [k, v] of Object.entries(values)) values[k] = typeof v === 'string' ? back(v) : Array.isArray(v) ? v.map(back) : v;
  } catch (e) {
    // An option that takes a value followed by another option ("--sheet -o x"): say what is missing.
    const ambiguous = /^Option '(-[^']+)' argument is ambiguous/.exec(String((e as Error).message));
    if (ambiguous) throw new UsageError(`${ambiguous[1]} needs a value (one starting with '-' is written ${ambiguous[1]}=-…)`);
    const unknown = /^Unknown option '(-[^']*)'/.exec(String((e as Error).message));
    if (unknown) throw new UsageError(unknownOption(unknown[1]!, names));
    // parseArgs explains at length how to pass a positional starting with '-'; the first sentence is the error.
    const first = String((e as Error).message)
      .split(/\.\s/)[0]!
      .replace(/\.$/, '');
    throw new UsageError(first.charAt(0).toLowerCase() + first.slice(1));
  }
  const str = (n: OptionName) => values[n] as string | undefined;
  const oneOf = <T extends string>(n: OptionName, allowed: readonly T[], dflt: T): T => {
    const v = str(n) ?? dflt;
    if (!allowed.includes(v as T)) throw new UsageError(`--${n} must be ${allowed.join(', ')}; got '${v}'`);
    return v as T;
  };
  const encoding = str('encoding');
  if (encoding !== undefined && !isEncodingLabel(encoding))
    throw new UsageError(`--encoding: unknown code page '${encoding}' (a WHATWG label such as windows-1250)`);
  return {
    positionals,
    raw: values,
    options: {
      json: values.json === true,
      strict: values.strict === true,
      backend: oneOf('backend', OPTIONS.backend.choices as Backend[], 'auto'),
      inflate: oneOf('inflate', OPTIONS.inflate.choices as InflaterChoice[], 'auto'),
      encoding,
      maxBytes: str('max-bytes') === undefined ? DEFAULT_MAX_BYTES : parseSize(str('max-bytes')!),
      limits: withZipRatio(parseLimits(str('max-cells'), str('max-inflated'), values.limit as string[] | undefined), str('max-zip-ratio')),
      maxZipRatio: str('max-zip-ratio') === undefined ? undefined : parseRatio(str('max-zip-ratio')!),
      follow: values.follow === true,
      force: values.force === true,
      help: values.help === true,
      out: str('out'),
      to: str('to'),
      version: str('version'),
      scale: str('scale'),
      layer: str('layer'),
      sheet: str('sheet'),
    },
  };
}

/** `unknown option --jsn (did you mean --json?)`; an option of other commands is named as such. */
function unknownOption(given: string, names: readonly OptionName[]): string {
  if (!given.startsWith('--')) return `unknown option ${given}`;
  const name = given.slice(2);
  const mine: string[] = [...names, 'help'];
  const guess = closest(name, mine);
  const hint = guess === undefined ? '' : ` (did you mean --${guess}?)`;
  return Object.hasOwn(OPTIONS, name) ? `--${name} is not an option of this command${hint}` : `unknown option --${name}${hint}`;
}

/** The decode options the shared flags stand for. */
export function decodeOptions(o: Options): DecodeOptions {
  return {
    backend: o.backend,
    inflate: o.inflate,
    strict: o.strict,
    ...(o.encoding ? { encoding: o.encoding } : {}),
    ...(Object.keys(o.limits).length > 0 ? { limits: o.limits } : {}),
  };
}

/** A whole number with an optional k, M or G (×1024ⁿ) suffix, at least `min`; NaN when it is not one. */
function sizeValue(s: string, min: number): number {
  const m = /^(\d+)([kmg]?)$/i.exec(s);
  const n = m ? Number(m[1]) * 1024 ** ' kmg'.indexOf((m[2] || ' ').toLowerCase()) : NaN;
  return Number.isSafeInteger(n) && n >= min ? n : NaN;
}

/** --max-zip-ratio joins the other caps (given twice, with --limit maxZipRatio too, it is refused). */
function withZipRatio(limits: Partial<Limits>, ratio: string | undefined): Partial<Limits> {
  if (ratio === undefined) return limits;
  if (limits.maxZipRatio !== undefined) throw new UsageError('--max-zip-ratio: limits.maxZipRatio is already set by --limit maxZipRatio');
  return { ...limits, maxZipRatio: parseRatio(ratio) };
}

function parseRatio(s: string): number {
  const n = Number(s);
  if (!/^\d+$/.test(s) || !Number.isSafeInteger(n) || n < 1) throw new UsageError(`--max-zip-ratio must be a whole number ≥ 1; got '${s}'`);
  return n;
}

function parseSize(s: string): number {
  const n = sizeValue(s, 1);
  if (Number.isNaN(n)) throw new UsageError(`--max-bytes must be a positive whole number of bytes, optionally with k, M or G; got '${s}'`);
  return n;
}

/** --max-cells, --max-inflated and every --limit name=value as decode caps; each named in its error, none given twice. */
function parseLimits(maxCells: string | undefined, maxInflated: string | undefined, named: string[] | undefined): Partial<Limits> {
  const limits: Partial<Limits> = {};
  const given = new Map<keyof Limits, string>();
  const set = (name: keyof Limits, value: string, flag: string) => {
    const before = given.get(name);
    if (before) throw new UsageError(`${flag}: limits.${name} is already set by ${before}`);
    const n = sizeValue(value, 0);
    if (Number.isNaN(n)) throw new UsageError(`${flag} must be a whole number ≥ 0, optionally with k, M or G; got '${value}'`);
    given.set(name, flag);
    limits[name] = n;
  };
  if (maxCells !== undefined) set('maxGridCells', maxCells, '--max-cells');
  if (maxInflated !== undefined) set('maxTotalInflatedBytes', maxInflated, '--max-inflated');
  for (const entry of named ?? []) {
    const eq = entry.indexOf('=');
    const name = LIMIT_NAMES.find((n) => n === entry.slice(0, eq));
    if (eq < 0 || name === undefined) throw new UsageError(`--limit must be name=value with name one of ${LIMIT_NAMES.join(', ')}; got '${entry}'`);
    set(name, entry.slice(eq + 1), `--limit ${name}`);
    if (name === 'maxZipRatio' && limits.maxZipRatio! < 1) throw new UsageError(`--limit maxZipRatio must be a whole number ≥ 1; got '${entry.slice(eq + 1)}'`);
  }
  return limits;
}

function isEncodingLabel(label: string): boolean {
  try {
    new TextDecoder(label);
    return true;
  } catch {
    return false;
  }
}

/** `--help` text: the command's line, its description, then every option it takes. */
export function helpText(cmd: Pick<Command, 'usage' | 'summary' | 'options' | 'optionHelp' | 'optionValue'>): string {
  const rows = [...cmd.options, 'help' as const].map((n) => {
    const o: OptionSpec = OPTIONS[n];
    const value = cmd.optionValue?.[n] ?? o.value ?? o.choices?.join('|');
    const flag = `${o.short ? `-${o.short}, ` : ''}--${n}${value ? ` <${value}>` : ''}`;
    return [flag, cmd.optionHelp?.[n] ?? o.help] as const;
  });
  const width = Math.max(...rows.map(([f]) => f.length));
  return `usage: ${cmd.usage}\n${cmd.summary}\n\noptions:\n${rows.map(([f, h]) => `  ${f.padEnd(width)}  ${h}\n`).join('')}`;
}

// `levelkit check`: the rules of src/check/ over files, folders and zips, on the scan's worker
// pool (each worker decodes a level fully and runs the rules on it), then the rules that need
// every file at once (Graal links). Findings go to stdout as lines, JSON lines or one SARIF log;
// the exit status says whether any reached --fail-on (1) or a file could not be decoded (2).

import { RULES } from '../../check/registry.js';
import { checkArchive } from '../../check/run.js';
import { jsonText } from '../../scan/json-text.js';
import { printable } from '../../scan/names.js';
import { type ScanOptions, scan } from '../../scan/scan.js';
import { checkSettings, fails } from '../check/args.js';
import { type CheckedFinding, findingJson, findingText } from '../check/output.js';
import { sarifLog } from '../check/sarif.js';
import type { Command } from '../command.js';
import { decodeOptions, UsageError } from '../options.js';
import { SCAN_OPTIONS, scanSettings } from '../scan-args.js';
import { stdoutGone, writeStdout } from '../stdout.js';
import { tuneTieringForScan } from '../tiering.js';
import { packageVersion } from '../version.js';

/** Scan options that make no sense for check: its outputs, the index and what it writes there (--check), resuming, depth (always full), sharding. */
const SCAN_ONLY: ReadonlySet<string> = new Set(['out', 'report', 'index', 'resume', 'check', 'depth', 'all', 'sort', 'shard', 'force']);
const CHECK_OPTIONS = ['json', 'sarif', 'list-rules', 'rule', 'skip-rule', 'fail-on', ...SCAN_OPTIONS.filter((o) => !SCAN_ONLY.has(o))] as const;

export const checkCommand: Command = {
  usage: 'levelkit check <file|folder|zip…> [options]',
  summary: 'Runs the map rules (unused images, unpaired teleporters, objects off the map, links to missing levels …) over levels, folders and zips.',
  options: CHECK_OPTIONS,
  optionHelp: {
    json: 'one JSON object per finding on stdout, with path and member',
    quiet: 'no count of files and findings on stderr',
  },
  async run(parsed) {
    if (parsed.raw['list-rules'] === true) {
      const width = Math.max(...RULES.map((r) => r.id.length));
      for (const r of RULES) writeStdout(`${r.id.padEnd(width)}  ${r.severity.padEnd(7)}  ${r.why}\n`);
      return 0;
    }
    const settings = checkSettings(parsed);
    const scanArgs = scanSettings({ ...parsed, raw: { ...parsed.raw, depth: 'full' } });
    if (parsed.positionals.length === 0) throw new UsageError('check needs at least one file, folder or zip');
    tuneTieringForScan();
    const opts: ScanOptions = {
      depth: 'full',
      workers: scanArgs.workers,
      timeoutMs: scanArgs.timeoutSeconds * 1000,
      maxBytes: parsed.options.maxBytes,
      ...(parsed.options.maxZipRatio !== undefined ? { maxZipRatio: parsed.options.maxZipRatio } : {}),
      follow: parsed.options.follow,
      signal: stdoutGone,
      ...(scanArgs.workerMemoryMb === undefined ? {} : { workerMemoryMb: scanArgs.workerMemoryMb }),
      decode: decodeOptions(parsed.options),
      check: { rules: settings.rules },
    };
    const held: CheckedFinding[] = [];
    const facts: { path: string; member: string | null; facts?: Record<string, unknown> }[] = [];
    let files = 0;
    let failedFiles = 0;
    let found = 0;
    let failing = false;
    // Paths that are not UTF-8, by their record's text: SARIF encodes a file's URI from its raw bytes.
    const rawNames = new Map<string, string>();
    const emit = (given: CheckedFinding) => {
      const raw = rawNames.get(given.path);
      const f = raw === undefined ? given : { ...given, pathBytes: raw };
      found++;
      if (fails(f.severity, settings.failOn)) failing = true;
      if (settings.output === 'sarif') held.push(f);
      else writeStdout(settings.output === 'json' ? findingJson(f) : findingText(f));
    };
    for await (const rec of scan(parsed.positionals, opts)) {
      files++;
      if (rec.error) {
        failedFiles++;
        const file = rec.member === null ? rec.path : `${rec.path}!${rec.member}`;
        process.stderr.write(`levelkit check: ${printable(file)}: ${rec.error.code}: ${printable(rec.error.message)}\n`);
        continue;
      }
      if (rec.pathBytes !== undefined) rawNames.set(rec.path, rec.pathBytes);
      for (const f of rec.findings ?? []) emit({ ...f, path: rec.path, member: rec.member });
      if (rec.checkFacts) facts.push({ path: rec.path, member: rec.member, facts: rec.checkFacts });
    }
    if (stdoutGone.aborted) return 0;
    for (const f of checkArchive(facts, settings.rules)) emit(f);
    if (settings.output === 'sarif') writeStdout(`${jsonText(sarifLog(held, settings.rules, packageVersion()), 2)}\n`);
    if (!scanArgs.quiet)
      process.stderr.write(
        `levelkit check: ${files} file${files === 1 ? '' : 's'}, ${found} finding${found === 1 ? '' : 's'}${failedFiles ? `, ${failedFiles} not decoded` : ''}\n`,
      );
    return failedFiles > 0 ? 2 : failing ? 1 : 0;
  },
};

// `levelkit check`: the rules of src/check/ over files, folders and zips, on the scan's worker
// pool (each worker decodes a level fully and runs the rules on it), then the rules that need
// every file at once (Graal links). Findings go to stdout as lines, JSON lines or one SARIF log,
// a file that could not be decoded among them (rule `decode`), each rule's first --max-per-rule
// per file and a count of the rest; the exit status says whether any reached --fail-on (1). Files
// --exclude matches are not read. Progress goes to stderr as scan's does (scan-progress.ts).

import { RULES } from '../../check/registry.js';
import { checkArchive, decodeFinding } from '../../check/run.js';
import { jsonText } from '../../scan/json-text.js';
import { type ScanOptions, type ScanStats, scan } from '../../scan/scan.js';
import { checkSettings, fails } from '../check/args.js';
import { byFile, capPerRule } from '../check/cap.js';
import { type CheckedFinding, findingJson, findingText } from '../check/output.js';
import { sarifLog } from '../check/sarif.js';
import type { Command } from '../command.js';
import { decodeOptions, UsageError } from '../options.js';
import { SCAN_OPTIONS, scanSettings } from '../scan-args.js';
import { Progress } from '../scan-progress.js';
import { stdoutGone, writeStdout } from '../stdout.js';
import { tuneTieringForScan } from '../tiering.js';
import { packageVersion } from '../version.js';

/** Scan options that make no sense for check: its outputs, resuming, --check (check always checks), depth (always full), sharding. */
const SCAN_ONLY: ReadonlySet<string> = new Set(['out', 'report', 'index', 'resume', 'check', 'depth', 'all', 'sort', 'shard', 'force']);
const CHECK_OPTIONS = [
  'json',
  'sarif',
  'list-rules',
  'rule',
  'skip-rule',
  'fail-on',
  'exclude',
  'max-per-rule',
  ...SCAN_OPTIONS.filter((o) => !SCAN_ONLY.has(o)),
] as const;

export const checkCommand: Command = {
  usage: 'levelkit check <file|folder|zip…> [options]',
  summary: 'Runs the map rules (unused images, unpaired teleporters, objects off the map, links to missing levels …) over levels, folders and zips.',
  options: CHECK_OPTIONS,
  optionHelp: {
    json: 'one JSON object per finding on stdout, with path and member',
    quiet: 'no progress and no count of files and findings on stderr',
  },
  async run(parsed) {
    if (parsed.raw['list-rules'] === true) {
      const width = Math.max(...RULES.map((r) => r.id.length));
      for (const r of RULES) writeStdout(`${r.id.padEnd(width)}  ${r.severity.padEnd(7)}  ${r.why} [source: ${r.source}]\n`);
      return 0;
    }
    const settings = checkSettings(parsed);
    const scanArgs = scanSettings({ ...parsed, raw: { ...parsed.raw, depth: 'full' } });
    if (parsed.positionals.length === 0) throw new UsageError('check needs at least one file, folder or zip');
    tuneTieringForScan();
    const stats: ScanStats = { found: 0, walkDone: false, replacedWorkers: 0 };
    const { excluded } = settings;
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
      stats,
      ...(excluded ? { skip: ({ path, member }) => excluded(path, member) } : {}),
    };
    const progress = new Progress(scanArgs.quiet, stats, 'check');
    const held: CheckedFinding[] = [];
    const facts: { path: string; member: string | null; facts?: Record<string, unknown> }[] = [];
    let files = 0;
    let failedFiles = 0;
    let found = 0;
    let failing = false;
    // Paths that are not UTF-8, by their record's text: SARIF encodes a file's URI from its raw bytes.
    const rawNames = new Map<string, string>();
    /** One file's findings: all counted and judged against --fail-on, the first --max-per-rule of each rule listed. */
    const emit = (ofOneFile: CheckedFinding[]) => {
      if (ofOneFile.length === 0) return;
      const raw = rawNames.get(ofOneFile[0]!.path);
      for (const f of ofOneFile) if (fails(f.severity, settings.failOn)) failing = true;
      found += ofOneFile.length;
      const listed = capPerRule(raw === undefined ? ofOneFile : ofOneFile.map((f) => ({ ...f, pathBytes: raw })), settings.maxPerRule);
      if (settings.output === 'sarif') held.push(...listed);
      else {
        // A live progress line is cleared first, so findings on a terminal are never written into it.
        progress.close();
        for (const f of listed) writeStdout(settings.output === 'json' ? findingJson(f) : findingText(f));
      }
    };
    for await (const rec of scan(parsed.positionals, opts)) {
      files++;
      progress.add(rec);
      if (rec.pathBytes !== undefined) rawNames.set(rec.path, rec.pathBytes);
      if (rec.error) {
        failedFiles++;
        emit([{ ...decodeFinding(rec.error), path: rec.path, member: rec.member }]);
        continue;
      }
      emit((rec.findings ?? []).map((f) => ({ ...f, path: rec.path, member: rec.member })));
      if (rec.checkFacts) facts.push({ path: rec.path, member: rec.member, facts: rec.checkFacts });
    }
    progress.close();
    if (stdoutGone.aborted) return 0;
    for (const ofOneFile of byFile(checkArchive(facts, settings.rules))) emit(ofOneFile);
    if (settings.output === 'sarif') writeStdout(`${jsonText(sarifLog(held, settings.rules, packageVersion()), 2)}\n`);
    if (!scanArgs.quiet) {
      const left = stats.skipped ? `, ${stats.skipped} excluded` : '';
      process.stderr.write(
        `levelkit check: ${files} file${files === 1 ? '' : 's'}, ${found} finding${found === 1 ? '' : 's'}${failedFiles ? ` (${failedFiles} not decoded)` : ''}${left}\n`,
      );
    }
    return failing ? 1 : 0;
  },
};

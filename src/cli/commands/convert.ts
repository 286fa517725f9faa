// `levelkit convert`: Graal levels between binary (.graal/.zelda) and text (.nw), one file or a
// whole folder (tree mirrored). All outputs are planned before the first write; see scan/write.ts.
import { graal } from '../../index.js';
import { displayName, extOf, fileFields, pathBytes, printable } from '../../scan/names.js';
import { errorRecord, type FailedRecord, type RecordWarning, recordFromError } from '../../scan/record.js';
import { type WalkEntry, walk } from '../../scan/walk.js';
import { findClashes, namedOutput, type OutputTarget, outputIn, writeNew } from '../../scan/write.js';
import type { Command } from '../command.js';
import { loadEntry } from '../load.js';
import { decodeOptions, type Options, UsageError } from '../options.js';
import { refuseSharedOutputs, STDOUT } from '../outputs.js';
import { warningText } from '../readable.js';
import type { Reporter } from '../report.js';
import { stdoutReady, writeStdout } from '../stdout.js';

type Target = 'nw' | 'graal';
const TARGET_BY_EXT: Record<string, Target> = { '.nw': 'nw', '.graal': 'graal', '.zelda': 'graal' };
const EXT_OF_TARGET: Record<Target, string> = { nw: '.nw', graal: '.graal' };

type FileEntry = Extract<WalkEntry, { kind: 'file' }>;
interface Job {
  entry: FileEntry;
  /** Where the converted level goes; STDOUT for `convert in.graal -`. */
  output: OutputTarget | typeof STDOUT;
}

export const convert: Command = {
  usage: 'levelkit convert <in> <out> [options]',
  summary: 'Converts Graal levels between binary (.graal, .zelda) and text (.nw); a folder converts every level under it into a mirrored tree.',
  options: ['to', 'version', 'force', 'json', 'strict', 'backend', 'inflate', 'encoding', 'max-bytes', 'max-cells', 'max-inflated', 'limit', 'follow'],
  async run({ options, positionals }, out) {
    if (positionals.length !== 2) throw new UsageError('convert needs an input and an output');
    const [input, output] = positionals as [string, string];
    if (options.version !== undefined && !Object.hasOwn(graal.BINARY_LAYOUTS, options.version))
      throw new UsageError(`--version must be one of ${Object.keys(graal.BINARY_LAYOUTS).join(', ')}`);
    if (options.to !== undefined && !Object.hasOwn(EXT_OF_TARGET, options.to)) throw new UsageError('--to must be nw or graal');
    const target = (options.to as Target | undefined) ?? TARGET_BY_EXT[extOf(pathBytes(output))];

    const entries = [...walk([input], { follow: options.follow })];
    const single = entries.length === 1 && entries[0]!.kind === 'file' && entries[0]!.named;
    if (output === STDOUT) {
      if (!single) throw new UsageError('- (standard output) holds one converted level; a folder needs an output folder');
      refuseSharedOutputs([
        { option: '--json', path: options.json ? STDOUT : undefined },
        { option: 'the output', path: STDOUT },
      ]);
      // The level is the data on stdout: the line saying what was converted moves to stderr.
      out.textToStderr();
    }
    if (!target)
      throw new UsageError(
        single
          ? `cannot tell the output format from '${output}': name it .nw, .graal or .zelda, or pass --to`
          : 'converting a folder needs --to nw or --to graal',
      );
    const jobs: Job[] = [];
    for (const e of entries) {
      if (e.kind === 'not-followed') {
        out.tally.notFollowed++;
        continue;
      }
      if (e.kind === 'unreadable') {
        out.fail(errorRecord(e.path, e.failure.code, e.failure.message));
        continue;
      }
      if (single) {
        jobs.push({ entry: e, output: output === STDOUT ? STDOUT : namedOutput(pathBytes(output)) });
        continue;
      }
      const ext = extOf(e.rel);
      if (!Object.hasOwn(TARGET_BY_EXT, ext)) {
        out.tally.skipped++;
        continue;
      } // maps and other formats stay out
      jobs.push({
        entry: e,
        output: outputIn(pathBytes(output), Buffer.concat([e.rel.subarray(0, e.rel.length - ext.length), Buffer.from(EXT_OF_TARGET[target])])),
      });
    }
    out.tally.written = 0;
    // Two inputs for one output (castle.graal and castle.nw with --to nw) would silently keep
    // only the second: refuse the whole run before anything is written.
    const clashes = findClashes(jobs.flatMap((j) => (j.output === STDOUT ? [] : [{ input: j.entry.path, output: j.output.path }])));
    for (const c of clashes) {
      const names = c.inputs.map((p) => displayName(p)).join(' and ');
      for (const p of c.inputs) out.fail(errorRecord(p, 'OUTPUT_CLASH', `${names} would both be written to ${displayName(c.output)}; nothing was written`));
    }
    if (clashes.length) return out.finish();
    for (const job of jobs) {
      if (!(await stdoutReady())) break;
      convertOne(job, target, options, out);
    }
    return out.finish();
  },
};

/** Converts and writes one file, reporting it either way. */
function convertOne({ entry, output }: Job, target: Target, options: Options, out: Reporter): void {
  const loaded = loadEntry(entry, out, options.maxBytes);
  if (!loaded) return;
  let bytes: Uint8Array;
  let warnings: RecordWarning[];
  try {
    const value = graal.decode(loaded.bytes, decodeOptions(options));
    if (value.format === 'graal-gmap') {
      out.fail(errorRecord(entry.path, 'NOT_SUPPORTED', 'a .gmap is a map of levels, not a level'));
      return;
    }
    warnings = value.warnings.map(({ code, message, offset }) => ({ code, message, offset: offset ?? null }));
    out.tally.decoded(value.format, warnings.length);
    try {
      bytes = target === 'nw' ? graal.encodeNw(value) : graal.encodeBinary(value, options.version ? { version: options.version } : {});
    } catch (e) {
      out.fail(unencodable(entry.path, target, e));
      return;
    }
    if (output === STDOUT) writeStdout(bytes);
    else if (!writeNew(output, bytes, options.force)) {
      out.fail(errorRecord(entry.path, 'OUTPUT_EXISTS', `${displayName(output.path)} exists (--force overwrites)`));
      return;
    }
  } catch (e) {
    out.fail(recordFromError(entry.path, e));
    return;
  }
  out.tally.written!++;
  const record = { ...fileFields(entry.path), output: output === STDOUT ? STDOUT : displayName(output.path), format: target, warnings };
  const text = `${printable(record.file)} → ${output === STDOUT ? 'standard output' : printable(record.output)}\n${warnings.map((w) => `  warning ${warningText(w)}\n`).join('')}`;
  out.ok(record, text);
}

/** EncodeError keeps its own code; some encoders still throw RangeError for a level the target cannot hold. */
function unencodable(path: Buffer, target: Target, e: unknown): FailedRecord {
  if (e instanceof RangeError) return errorRecord(path, 'UNENCODABLE', `cannot write as ${target}: ${e.message}`);
  return recordFromError(path, e);
}

// `levelkit convert <in> <out> [--to nw|graal] [--version GR-V1.03…] [--backend …]`: Graal levels
// between binary (.graal/.zelda) and text (.nw), one file or a whole folder (tree mirrored).
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, relative } from 'node:path';
import { DecodeError, graal, type Backend } from '../../index.js';
import { expandPaths } from '../../scan/walk.js';
import { parseArgs, UsageError } from '../args.js';

export const usage = 'levelkit convert <in> <out> [--to nw|graal] [--version GR-V1.03…GR-V1.05|Z3-V1.03|Z3-V1.04] [--backend auto|wasm|js]';

type Target = 'nw' | 'graal';
const TARGET_BY_EXT: Record<string, Target> = { '.nw': 'nw', '.graal': 'graal', '.zelda': 'graal' };

export async function run(argv: string[]): Promise<number> {
  const { flags, positionals } = parseArgs(argv, { valued: ['--to', '--version', '--backend'] });
  if (positionals.length !== 2) throw new UsageError('convert needs an input and an output');
  const [input, output] = positionals as [string, string];
  const backend = (flags.get('--backend') ?? 'auto') as Backend;
  if (!['auto', 'wasm', 'js'].includes(backend)) throw new UsageError('--backend must be auto, wasm or js');
  const version = flags.get('--version') as string | undefined;
  if (version !== undefined && !(version in graal.BINARY_LAYOUTS)) throw new UsageError(`--version must be one of ${Object.keys(graal.BINARY_LAYOUTS).join(', ')}`);
  const to = flags.get('--to') as string | undefined;
  if (to !== undefined && to !== 'nw' && to !== 'graal') throw new UsageError('--to must be nw or graal');

  let isDir = false;
  try { isDir = statSync(input).isDirectory(); } catch { /* a missing file is reported below */ }
  if (!isDir) {
    const target = (to as Target | undefined) ?? TARGET_BY_EXT[extname(output).toLowerCase()];
    if (!target) throw new UsageError(`cannot tell the output format from ${JSON.stringify(output)}: name it .nw, .graal or .zelda, or pass --to`);
    return convertOne(input, output, target, backend, version) ? 0 : 2;
  }
  // A folder: every Graal level under it, written under `output` with the target extension.
  const target = (to as Target | undefined) ?? TARGET_BY_EXT[extname(output).toLowerCase()];
  if (!target) throw new UsageError('converting a folder needs --to nw or --to graal');
  let failed = 0, converted = 0, skipped = 0;
  for (const file of expandPaths([input]).files) {
    const ext = extname(file).toLowerCase();
    if (!(ext in TARGET_BY_EXT)) { skipped++; continue; } // maps and other formats stay out
    const out = join(output, relative(input, file)).slice(0, -ext.length) + (target === 'nw' ? '.nw' : '.graal');
    if (convertOne(file, out, target, backend, version)) converted++; else failed++;
  }
  process.stdout.write(`${converted} converted, ${failed} failed, ${skipped} skipped\n`);
  return failed ? 2 : 0;
}

/** Converts one file; prints a line and returns false when it cannot be read or is not a Graal level. */
function convertOne(input: string, output: string, target: Target, backend: Backend, version?: string): boolean {
  try {
    const value = graal.decode(readFileSync(input), { backend });
    if (value.format === 'graal-gmap') throw new DecodeError('graal-gmap', 'BAD_MAGIC', { offset: 0, detail: 'a .gmap is not a level' });
    const bytes = target === 'nw' ? graal.encodeNw(value) : graal.encodeBinary(value, version ? { version } : {});
    mkdirSync(dirname(output), { recursive: true });
    writeFileSync(output, bytes);
    for (const w of value.warnings) process.stderr.write(`${input}: warning ${w.code}: ${w.message}\n`);
    return true;
  } catch (e) {
    if (e instanceof DecodeError) { process.stderr.write(`${input}: ${e.code}: ${e.message}\n`); return false; }
    const err = e as NodeJS.ErrnoException;
    if (err.code && err.syscall) { process.stderr.write(`${input}: ${err.message}\n`); return false; }
    if (e instanceof RangeError) { process.stderr.write(`${input}: cannot write as ${target}: ${e.message}\n`); return false; }
    throw e;
  }
}

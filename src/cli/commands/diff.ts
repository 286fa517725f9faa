// `levelkit diff <a> <b>`: what changed between two levels of one format (each format's diff(), see
// src/diff), as counts and lines, --json (one change per line) and --png (the new level with changed
// cells outlined in their layer's colour, and a legend; the lines then only with --text); or, given
// two archive index folders, the files added, removed and changed.
// Exit status as diff(1) and cmp(1): 0 the same, 1 different, 2 trouble (bad usage included, and a
// --png that could not be drawn or written: what was asked for is missing, as GNU diff says 2 when
// part of a comparison failed even though it found differences).

import { diffIndexes, type IndexChange, isIndexFolder } from '../../archive-index/diff.js';
import { EngineMissing } from '../../archive-index/engine.js';
import { BrokenPart } from '../../archive-index/parts.js';
import { QueryError } from '../../archive-index/query.js';
import { type AnyDecoded, type Change, decode, diff, withTileMeaning } from '../../index.js';
import { jsonText } from '../../scan/json-text.js';
import { displayName, fileFields, pathBytes, printable } from '../../scan/names.js';
import { errorOf } from '../../scan/record.js';
import { namedOutput, OutputError, writeNew } from '../../scan/write.js';
import type { Command } from '../command.js';
import { highlightedPicture } from '../diff-png.js';
import { changesText } from '../diff-text.js';
import { checkInputs, inputName, inputOptions, type LevelInput, levelInputs } from '../inputs.js';
import { decodeOptions, type Parsed, UsageError } from '../options.js';
import { checkNewFile } from '../outputs.js';
import { pngEncoder } from '../png.js';
import { pngOf } from '../render-level.js';
import { writeStdout } from '../stdout.js';

/** A level that could not be read or decoded, or two that cannot be compared: one line, exit 2. */
class Trouble extends Error {}

export const diffCommand: Command = {
  usage: 'levelkit diff <a> <b> [options]',
  summary:
    'Prints what changed between two levels of one format (cells as rectangles, layers by name, physics tiles by meaning, objects by id, images, scripts by line), or between two archive indexes (files added, removed, changed). Exit 0 same, 1 different, 2 trouble (with --png too; a PNG that cannot be drawn or written is trouble).',
  options: ['json', 'png', 'text', 'force', 'strict', 'backend', 'inflate', 'encoding', 'max-bytes', 'max-zip-ratio', 'max-cells', 'max-inflated', 'limit'],
  optionHelp: {
    json: 'one JSON object per change, one per line (kind, where, from, to)',
    png: 'draw the new level with the changed cells outlined in the colour of their layer and a legend saying which layer each colour is, as PNG; the text diff is then printed only with --text (or --json); exit status as without it (0 same, 1 different), 2 when the PNG cannot be drawn or written',
    force: 'overwrite the --png file when it exists',
  },
  usageStatus: 2,
  async run(args) {
    const { positionals, raw, options } = args;
    if (positionals.length !== 2) throw new UsageError('diff needs two files (levels, or a.zip::member), or two index folders');
    checkInputs(positionals, 'diff');
    const png = raw.png as string | undefined;
    if (raw.text && png === undefined) throw new UsageError('--text goes with --png (without --png the text diff is printed anyway)');
    if (raw.text && options.json) throw new UsageError('--text and --json are two ways to print the changes: give one');
    if (png !== undefined) checkNewFile('--png', png, options.force);
    const [a, b] = positionals as [string, string];
    const indexes = [isIndexFolder(a), isIndexFolder(b)];
    if (indexes[0] || indexes[1]) {
      if (!(indexes[0] && indexes[1])) throw new UsageError('diff compares two levels or two index folders, not one of each');
      if (png !== undefined) throw new UsageError('--png draws a level; two indexes have none');
      return indexDiff(a, b, options.json);
    }
    try {
      return await levelDiff(args, png, raw.text === true);
    } catch (e) {
      if (!(e instanceof Trouble)) throw e;
      process.stderr.write(`levelkit diff: ${printable(e.message)}\n`);
      return 2;
    }
  },
};

async function levelDiff({ options, positionals }: Parsed, png: string | undefined, text: boolean): Promise<number> {
  const [la, lb] = [await oneLevel(positionals[0]!, options), await oneLevel(positionals[1]!, options)];
  const opts = decodeOptions(options);
  const [va, vb] = [decodeLevel(la, opts), decodeLevel(lb, opts)];
  let changes: Change[];
  try {
    changes = diff(va, vb);
  } catch (e) {
    if (e instanceof TypeError)
      throw new Trouble(`${nameOf(la)} (${va.format}) and ${nameOf(lb)} (${vb.format}) cannot be compared: ${e.message.replace(/^levelkit[^:]*: /, '')}`);
    throw e;
  }
  // What DDNet physics tiles mean, for the person reading (the library's teeworlds.diff leaves it out: tile-names.ts).
  if (vb.format === 'teeworlds') for (const c of changes) withTileMeaning(c);
  if (options.json) for (const c of changes) writeStdout(`${jsonText(c)}\n`);
  // With --png the picture is the answer; the lines only when asked for (--text), as `git diff --stat` replaces the patch.
  else if (changes.length && (png === undefined || text)) writeStdout(changesText(`${nameOf(la)} → ${nameOf(lb)}`, changes));
  if (png !== undefined) await writePng(png, vb, changes, options.force);
  return changes.length ? 1 : 0;
}

/** The one level `given` names (a file, `a.zip::member`, `-`); Trouble when it names none or several, or cannot be read. */
async function oneLevel(given: string, options: Parsed['options']): Promise<LevelInput> {
  const found: LevelInput[] = [];
  for await (const input of levelInputs([given], inputOptions(options))) {
    if ('failed' in input) throw new Trouble(`${inputName(input.failed)}: ${input.failed.error.code}: ${input.failed.error.message}`);
    if ('level' in input) found.push(input.level);
    if (found.length > 1) throw new UsageError(`${given} holds more than one level; name one (a.zip::member)`);
  }
  if (!found.length) throw new Trouble(`${given}: not a level file levelkit knows`);
  return found[0]!;
}

function decodeLevel(level: LevelInput, opts: ReturnType<typeof decodeOptions>): AnyDecoded {
  try {
    return decode(level.bytes, opts);
  } catch (e) {
    if (e instanceof TypeError || e instanceof RangeError) throw e;
    const err = errorOf(e);
    throw new Trouble(`${nameOf(level)}: ${err.code}: ${err.message}`);
  }
}

function nameOf(level: LevelInput): string {
  const f = fileFields(level.path);
  return inputName(level.member === null ? f : { ...f, member: level.member });
}

async function writePng(path: string, level: AnyDecoded, changes: Change[], force: boolean): Promise<void> {
  const { picture, highlighted, empty } = highlightedPicture(level, changes);
  if (empty) throw new Trouble(`--png: nothing to draw (${empty}); ${path} not written`);
  const target = namedOutput(pathBytes(path));
  try {
    if (!writeNew(target, pngOf(picture, await pngEncoder()), force)) throw new Trouble(`${displayName(target.path)} appeared while drawing; it was kept`);
  } catch (e) {
    if (e instanceof OutputError) throw new Trouble(`--png: ${e.code}: ${e.message}`);
    throw e;
  }
  process.stderr.write(
    `levelkit diff: ${picture.width}×${picture.height} px, ${highlighted} changed rectangle${highlighted === 1 ? '' : 's'} marked → ${printable(path)}\n`,
  );
}

async function indexDiff(a: string, b: string, json: boolean): Promise<number> {
  let changes: IndexChange[];
  try {
    changes = await diffIndexes(a, b);
  } catch (e) {
    if (e instanceof BrokenPart || e instanceof EngineMissing || e instanceof QueryError) {
      process.stderr.write(`levelkit diff: ${printable(e.message)}\n`);
      return 2;
    }
    throw e;
  }
  if (json) for (const c of changes) writeStdout(`${jsonText(c)}\n`);
  else {
    const count = (k: IndexChange['kind']) => changes.filter((c) => c.kind === k).length;
    const head = `${count('file-added')} added, ${count('file-removed')} removed, ${count('file-changed')} changed\n`;
    const mark = { 'file-added': '+', 'file-removed': '-', 'file-changed': '~' } as const;
    writeStdout(
      head + changes.map((c) => `  ${mark[c.kind]} ${printable(inputName({ file: c.path, ...(c.member === null ? {} : { member: c.member }) }))}\n`).join(''),
    );
  }
  return changes.length ? 1 : 0;
}

// `levelkit check --exclude <glob>`: files (and zip members) left out before they are read. A glob
// is matched against the path as check prints it, '/'-separated, a leading './' dropped, a zip
// member as a path under its zip (`maps.zip/in/a.map`). It matches when it matches the whole path
// or its last segments (so `*.bak` is any .bak at any depth and `vendor/**` any vendor folder);
// one starting with '/' matches the whole path only. `*` is any run of characters but '/', `?`
// one such character, `**` as a whole segment any number of segments (none too), `[abc]`/`[a-z]`
// /`[!abc]` one character of (not of) a set. No braces and no escapes: those characters match
// themselves. A malformed glob (empty, an unclosed `[`) is a usage error naming --exclude.
import { printable } from '../../scan/names.js';
import { UsageError } from '../options.js';

/** Whether a file or member is to be left out: `path` as the scan gives it, `member` inside it. */
export type Excluded = (path: string, member: string | null) => boolean;

/** The test of `globs` (none: nothing is left out). Throws UsageError naming the malformed glob. */
export function excluder(globs: readonly string[]): Excluded | undefined {
  if (globs.length === 0) return undefined;
  const tests = globs.map(globTest);
  return (path, member) => {
    const full = (member === null ? path : `${path}/${member}`).replace(/^(\.\/)+/, '');
    const segments = full.split('/');
    return tests.some((t) => t(segments));
  };
}

/** A glob as a test of a path's segments. */
function globTest(glob: string): (segments: readonly string[]) => boolean {
  if (glob === '' || glob === '/') throw new UsageError(`--exclude needs a glob such as '*.bak' or 'vendor/**'; got '${printable(glob)}'`);
  const anchored = glob.startsWith('/');
  const parts = (anchored ? glob.slice(1) : glob).split('/').filter((s, i, all) => s !== '' || i === all.length - 1);
  const matchers = parts.map((p) => (p === '**' ? null : segmentRegExp(p, glob)));
  return (segments) => {
    if (anchored) return matchFrom(matchers, segments, 0, 0);
    for (let start = segments.length - 1; start >= 0; start--) if (matchFrom(matchers, segments, 0, start)) return true;
    return false;
  };
}

/** Whether matchers[m…] match segments[s…] to the end (`null` is `**`: any number of segments). */
function matchFrom(matchers: readonly (RegExp | null)[], segments: readonly string[], m: number, s: number): boolean {
  if (m === matchers.length) return s === segments.length;
  const here = matchers[m] as RegExp | null;
  if (here === null) {
    for (let k = s; k <= segments.length; k++) if (matchFrom(matchers, segments, m + 1, k)) return true;
    return false;
  }
  return s < segments.length && here.test(segments[s]!) && matchFrom(matchers, segments, m + 1, s + 1);
}

/** One segment of a glob as an anchored RegExp. */
function segmentRegExp(segment: string, glob: string): RegExp {
  let source = '';
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]!;
    if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else if (c === '[') {
      const end = segment.indexOf(']', i + 2);
      if (end < 0) throw new UsageError(`--exclude: '${printable(glob)}' has a '[' with no ']' closing its set`);
      let set = segment.slice(i + 1, end);
      const negated = set.startsWith('!');
      if (negated) set = set.slice(1);
      source += `[${negated ? '^' : ''}${set.replace(/[\\\]^]/g, '\\$&')}]`;
      i = end;
    } else source += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  try {
    return new RegExp(`^${source}$`, 'u');
  } catch {
    // A set the RegExp refuses: a range out of order (`[z-a]`).
    throw new UsageError(`--exclude: '${printable(glob)}' has a set that is not a valid range`);
  }
}

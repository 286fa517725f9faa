// The fixture levels levelkit decodes whole, for tests that walk every format's rows.
import { type AnyDecoded, decode } from '../../src/index.js';
import { FIXTURES, listFiles, readBytes } from './paths.js';

/** Every fixture file but the docs, the generators and the malformed ones (fixtures/…/bad/). */
export const FIXTURE_FILES = listFiles(FIXTURES, /./).filter((p) => !p.endsWith('.md') && !p.includes('/generators/') && !p.includes('/bad/'));

/** The fixture files that decode, with their values (a file decode() refuses has nothing to index). */
export function decodedFixtures(): { path: string; value: AnyDecoded }[] {
  const out: { path: string; value: AnyDecoded }[] = [];
  for (const path of FIXTURE_FILES) {
    try {
      out.push({ path, value: decode(readBytes(path)) });
    } catch {
      // Not a level levelkit decodes whole: nothing to index.
    }
  }
  return out;
}

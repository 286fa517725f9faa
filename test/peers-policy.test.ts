// The peer tools levelkit is timed against never enter the repository, and neither does a way to
// get them: no script or README step that fetches or compiles one (../shared/docs/PEERS.md). The
// harnesses in bench/peers/ take the path of a peer the user built (LEVELKIT_PEER_*).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listFiles, ROOT } from './helpers/paths.js';

/** Commands that fetch or build something: what a peer recipe would need. */
const RECIPE = [/\bgit clone\b/, /\b(?:curl|wget)\s/, /\b(?:g\+\+|gcc|clang|cc)\s+-/, /\bcmake\s+[-.]/, /\bmake\s+-[Cj]/];

function recipeLines(path: string): string[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => RECIPE.some((r) => r.test(line)))
    .map((line) => `${relative(ROOT, path)}: ${line.trim()}`);
}

describe('peer tools', () => {
  it('no file under bench/, and no README, holds a command that fetches or builds one', () => {
    const files = [...listFiles(join(ROOT, 'bench'), /./), join(ROOT, 'README.md')];
    expect(files.flatMap(recipeLines)).toEqual([]);
    expect(readdirSync(join(ROOT, 'bench/peers')).filter((name) => name.startsWith('build'))).toEqual([]);
  });

  it('no package script builds one; bench:peers runs the harnesses on the peers the user names', () => {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(Object.entries(scripts).filter(([, s]) => RECIPE.some((r) => r.test(s)) || /bench\/peers\/build/.test(s))).toEqual([]);
    for (const harness of ['wwd-libwap32.ts', 'graal-graalsuite.ts']) expect(scripts['bench:peers']).toContain(`bench/peers/${harness}`);
  });

  it('each harness takes the peer from an environment variable and says which tool and revision it expects', () => {
    for (const [harness, variable, revision] of [
      ['wwd-libwap32.ts', 'LEVELKIT_PEER_WWD', 'cubuspl42/libwap32 @a9ed93d'],
      ['graal-graalsuite.ts', 'LEVELKIT_PEER_GRAALSUITE', 'MorenoLand/GScript.GraalSuite @1229685a'],
    ] as const) {
      const text = readFileSync(join(ROOT, 'bench/peers', harness), 'utf8');
      expect(text).toContain(`process.env.${variable}`);
      expect(text).toContain(revision);
    }
  });
});

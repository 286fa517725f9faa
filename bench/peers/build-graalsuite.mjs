// Cuts GraalSuite's JS level loader out of a leveleditor.js you supply, into $LEVELKIT_PEERS/level.mjs
// (default ~/.cache/levelkit-peers), for bench/peers/graal-graalsuite.ts. Nothing of it enters
// levelkit: the source comes from your copy of github.com/MorenoLand/GScript.GraalSuite @1229685a
// (js/leveleditor.js), and the slice is written outside the repository.
//   GRAALSUITE_SRC=/path/to/leveleditor.js node bench/peers/build-graalsuite.mjs
// The slice is the file from `const CHEST_ITEMS` up to `class LevelEditor` (the loader class
// `Level` and what it calls; no DOM is touched while loading), with `export { Level }` appended.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const src = process.env.GRAALSUITE_SRC;
if (!src) {
  console.error('levelkit: set GRAALSUITE_SRC to your copy of GScript.GraalSuite js/leveleditor.js');
  process.exit(2);
}
const text = readFileSync(src, 'utf8');
const from = text.indexOf('const CHEST_ITEMS');
const to = text.indexOf('class LevelEditor', from);
if (from < 0 || to < 0) {
  console.error(`levelkit: ${src} has no \`const CHEST_ITEMS\` … \`class LevelEditor\` slice: not GraalSuite's leveleditor.js?`);
  process.exit(1);
}
const out = join(process.env.LEVELKIT_PEERS ?? join(homedir(), '.cache/levelkit-peers'), 'level.mjs');
mkdirSync(join(out, '..'), { recursive: true });
writeFileSync(out, `${text.slice(from, to)}\nexport { Level };\n`);
console.log(`wrote ${out} (${to - from} characters of ${src})`);

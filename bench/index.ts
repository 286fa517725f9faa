// `npm run bench`: runs every bench/*.bench.ts in turn (one process, one run, so ratios compare).
import { readdirSync } from 'node:fs';
import { cpus } from 'node:os';
import { versions } from 'node:process';

const only = process.argv[2];
console.log(`levelkit bench — Node ${versions.node}, ${cpus().length}× ${cpus()[0]?.model ?? 'cpu'}, ${new Date().toISOString()}`);
for (const f of readdirSync(new URL('.', import.meta.url))
  .filter((n) => n.endsWith('.bench.ts'))
  .sort()) {
  if (only && !f.includes(only)) continue;
  console.log(`\n## ${f}`);
  await import(new URL(f, import.meta.url).href);
}

// The test oracle of #42: what a cartridge builds when its Lua really runs, for checking the static
// analysis against. A real Lua 5.1 (Debian's lua5.1, installed by .ci/run) runs the main chunk with
// a recording stand-in for the Wherigo library (test/oracles/wherigo-recorder.lua) and prints the
// objects as ObjectFacts. Tests only: levelkit itself never runs Lua.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ObjectFacts } from '../../src/formats/gwc/analysis/types.js';
import { autoText } from '../../src/formats/gwc/lua.js';
import { decodeLuaChunk } from '../../src/formats/gwc/lua-chunk.js';
import { encodeLuaChunk } from '../../src/formats/gwc/lua-encode.js';
import { corpus, type Need } from './needs.js';
import { ROOT } from './paths.js';

export const LUA51 = process.env.LUA51_PATH ?? 'lua5.1';
export const RECORDER = join(ROOT, 'test/oracles/wherigo-recorder.lua');
/** A cartridge's main chunk runs in well under a second; a hang (a cartridge looping at load) fails instead. */
const RUN_TIMEOUT_MS = 20_000;

let sizeT: Need<number> | undefined;

/**
 * Whether the oracle can run: a `lua5.1` that starts, and the size_t its chunks use (lundump.c
 * loads only chunks whose header matches its own build: 8 on amd64, 4 where the GWCs were built).
 */
export function lua51(): Need<number> {
  if (sizeT) return sizeT;
  const r = spawnSync(LUA51, ['-e', 'io.write(string.byte(string.dump(function() end), 9))'], { encoding: 'utf8', timeout: RUN_TIMEOUT_MS });
  const n = Number(r.stdout);
  sizeT =
    r.status === 0 && (n === 4 || n === 8)
      ? { ok: true, value: n }
      : {
          ok: false,
          missing: `${LUA51} did not run (${r.error?.message ?? (r.stderr?.split('\n')[0] || `status ${r.status}`)}; .ci/run installs Debian's lua5.1, LUA51_PATH names another)`,
        };
  return sizeT;
}

/**
 * The objects the cartridge's main chunk makes when run, in creation order, as ObjectFacts. A GWC's
 * chunk (`{ chunk }`) is re-encoded with this lua5.1's size_t; GWZ source (`{ source }`) runs as is.
 * Throws with the recorder's message when lua5.1 is missing, the chunk fails to load or run (a
 * Wherigo function the recorder lacks, say), a fact has a type ObjectFacts has no room for, or it
 * runs past `timeoutMs`.
 */
export function oracleFacts(input: { chunk: Uint8Array } | { source: string }, timeoutMs = RUN_TIMEOUT_MS): ObjectFacts[] {
  const lua = lua51();
  if (!lua.ok) throw new Error(`wherigo oracle: ${lua.missing}`);
  const dir = mkdtempSync(join(tmpdir(), 'levelkit-oracle-'));
  try {
    const file = join(dir, 'chunk');
    writeFileSync(file, 'chunk' in input ? withSizeT(input.chunk, lua.value) : input.source);
    const r = spawnSync(LUA51, [RECORDER, file], { encoding: 'latin1', timeout: timeoutMs, maxBuffer: 256 << 20 });
    if ((r.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT') throw new Error(`wherigo oracle: still running after ${timeoutMs} ms, stopped`);
    if (r.error) throw new Error(`wherigo oracle: ${LUA51} ${r.error.message}`);
    if (r.signal) throw new Error(`wherigo oracle: ${LUA51} killed by ${r.signal}`);
    if (r.status !== 0) throw new Error(`wherigo oracle: status ${r.status}: ${r.stderr.trim().split('\n').slice(0, 6).join('\n')}`);
    return (JSON.parse(r.stdout) as ObjectFacts[]).map(decodeTexts);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `chunk` with the size_t lua5.1 loads (the GWCs' chunks have 4; amd64 builds want 8). */
function withSizeT(chunk: Uint8Array, size: number): Uint8Array {
  const c = decodeLuaChunk(chunk);
  return c.header.sizeTSize === size ? chunk : encodeLuaChunk({ ...c, header: { ...c.header, sizeTSize: size } });
}

/** The recorder writes a Lua string's bytes as \u00XX; this decodes them as the library decodes a Lua string. */
const text = (s: string): string => autoText(new Uint8Array(Buffer.from(s, 'latin1'))).text;
const maybeText = <T>(s: T): T => (typeof s === 'string' ? (text(s) as T) : s);

function decodeTexts(o: ObjectFacts): ObjectFacts {
  return {
    ...o,
    id: maybeText(o.id),
    name: maybeText(o.name),
    description: maybeText(o.description),
    inputType: maybeText(o.inputType),
    choices: Array.isArray(o.choices) ? o.choices.map(maybeText) : o.choices,
  };
}

/** What the oracle suites need: the shared GWC corpus and a lua5.1 that runs. */
export function oracleCorpus(): Need<string> {
  const lua = lua51();
  if (!lua.ok) return lua;
  return corpus('gwc');
}

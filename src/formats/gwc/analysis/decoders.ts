// The string decoders of a chunk: the functions obfuscating builders add so that a cartridge's
// strings are stored scrambled and unscrambled as it runs (`Text = _wRGbT("…")`). They are
// recognised by their shape in the bytecode, never by name (the names are random), and evaluated
// on constant arguments by the bounded interpreter of mini-vm.ts.
//
// Shapes (facts from the builders' output, checked against the corpus and the GWZ sources):
// - `urwigo-table`: Urwigo's: one parameter; a 127-byte table string (`dtable`); for each byte
//   b of the argument in 1..127 the output byte is dtable's b-th byte, others are kept.
//   A cartridge may hold several, each with its own table (GCWizard issue #1710).
// - `earwigo-palette`: Earwigo's and the Wherigo Kit's: one parameter; each character found in a
//   palette string (a global or upvalue constant) is rotated back by a position-dependent jump
//   (`string.find` in the palette, `string.sub` out of it).
// - `generic`: any other function of one parameter that builds a string (`..` or a string
//   library builder) and returns it, reads no globals but `string`, `math` and globals the main
//   function sets once to constants, reads no upvalues but constants, and writes no globals or
//   upvalues and makes no closures. Evaluating such a function on a constant is exact, so a
//   helper that is not an obfuscator (`string.upper(s)`) is still decoded right.
//
// Bounds: DECODER_STEP_LIMIT instructions and DECODER_STRING_LIMIT bytes per string per call
// (past either the result is `unknown`, with why); DECODER_CARTRIDGE_STEP_LIMIT instructions over
// every call of one StringDecoders (past it `decode` throws a LIMIT_EXCEEDED DecodeError: a
// cartridge that makes the evaluator work that hard is hostile, and the caller stops there).

import { decodeError } from '../../../core/errors.js';
import { autoText } from '../lua.js';
import { bx, LUA_RK_CONSTANT, LuaOp } from '../lua-opcodes.js';
import type { LuaChunk, LuaProto } from '../lua-types.js';
import { DEFAULT_ANALYSIS_LIMITS } from './budget.js';
import { closureSite, globalConstants, globalsReplaced, upvalueConstants } from './chunk-constants.js';
import { decodeWithTable, urwigoTable } from './decoder-templates.js';
import { DECODER_STEP_LIMIT, DECODER_STRING_LIMIT, runProto, type VmBudget, VmBudgetSpent, type VmEnv } from './mini-vm.js';
import { LIBRARY_GLOBALS, STRING_BUILDERS } from './mini-vm-lib.js';
import { binaryToText, bytesToBinary, luaType, VmUnknown, type VmValue } from './mini-vm-values.js';
import type { AbstractValue, StringDecoderInfo, StringDecoders } from './types.js';

// The opcode numbers, read once through the module binding (not on every instruction).
const Op = LuaOp;

export { DECODER_STEP_LIMIT, DECODER_STRING_LIMIT } from './mini-vm.js';

/**
 * Decoder instructions over every call of one cartridge's StringDecoders: the analysis default
 * `maxDecoderSteps` (budget.ts), so a GWC's bytecode and a GWZ's source stop at one bound.
 */
export const DECODER_CARTRIDGE_STEP_LIMIT = DEFAULT_ANALYSIS_LIMITS.maxDecoderSteps;

/** Bounds of findStringDecoders (defaults: the constants above). */
export interface DecoderLimits {
  maxStepsPerCall?: number;
  maxSteps?: number;
  maxStringBytes?: number;
  /** False runs even an exact Urwigo decoder in the mini VM (decoder-templates.ts), so tests can compare both paths. Default true. */
  templates?: boolean;
}

/** Urwigo's table maps bytes 1..127, so it is 127 bytes long. */
const URWIGO_TABLE_BYTES = 127;

/** Opcodes a decoder never has (they write outside the call or make functions): 1 at their number, read once per instruction. */
const FORBIDDEN = new Uint8Array(64);
for (const op of [Op.SETGLOBAL, Op.SETUPVAL, Op.CLOSURE, Op.VARARG, Op.TFORLOOP]) FORBIDDEN[op] = 1;

interface Candidate {
  info: StringDecoderInfo;
  env: VmEnv;
  /** Urwigo's table when the function is exactly Urwigo's decoder (decoder-templates.ts): evaluated natively. */
  table: Uint8Array | null;
}

/** The string keys a function indexes with constants (`string.char`, `s:byte`). */
function constantKeys(proto: LuaProto): Set<string> {
  const keys = new Set<string>();
  const code = proto.code;
  for (let pc = 0; pc < code.length; pc++) {
    const op = code.op[pc];
    if ((op === Op.GETTABLE || op === Op.SELF) && code.c[pc]! >= LUA_RK_CONSTANT) {
      const key = proto.k[code.c[pc]! - LUA_RK_CONSTANT];
      if (key?.type === 'string') keys.add(key.value.text);
    }
  }
  return keys;
}

/** The shape of `proto` when it is a string decoder (see the file's comment), else null. */
function recognise(
  chunk: LuaChunk,
  proto: LuaProto,
  library: ReadonlyMap<string, VmValue>,
  chunkGlobals: () => ReadonlyMap<string, VmValue>,
): Candidate | null {
  if (proto.parent < 0 || proto.numParams !== 1 || (proto.isVararg & 2) !== 0 || proto.p.length > 0) return null;
  const code = proto.code;
  let builds = false;
  let returnsOne = false;
  const globalNames: string[] = [];
  for (let pc = 0; pc < code.length; pc++) {
    const op = code.op[pc]!;
    if (FORBIDDEN[op]) return null;
    if (op === Op.GETGLOBAL) {
      const name = proto.k[bx(code, pc)];
      if (name?.type !== 'string') return null;
      globalNames.push(name.value.text);
    }
    if (op === Op.CONCAT) builds = true;
    if (op === Op.RETURN && code.b[pc] === 2) returnsOne = true;
  }
  if (!returnsOne) return null;
  const keys = constantKeys(proto);
  for (const key of keys) if (STRING_BUILDERS.has(key)) builds = true;
  if (!builds || !returnsOne) return null;
  // Globals last: the chunk's constant globals are looked for only for a function that passed the rest.
  const readsChunkGlobals = globalNames.some((name) => !library.has(name));
  const globals = readsChunkGlobals ? new Map([...library, ...chunkGlobals()]) : library;
  if (!globalNames.every((name) => globals.has(name))) return null;
  const readGlobals = globalNames.map((name) => globals.get(name));
  const upvalues = proto.nups > 0 ? upvalueConstants(chunk, proto) : [];
  if (upvalues.some((u) => 'why' in u)) return null;
  const env: VmEnv = { globals, upvalues };
  const strings = [
    ...proto.k.flatMap((c) => (c.type === 'string' ? [c.value.raw.length] : [])),
    ...upvalues.flatMap((u) => ('value' in u && typeof u.value === 'string' ? [u.value.length] : [])),
  ];
  let shape = 'generic';
  if (strings.includes(URWIGO_TABLE_BYTES) && keys.has('byte') && keys.has('char')) shape = 'urwigo-table';
  else if (
    keys.has('find') &&
    keys.has('sub') &&
    [...readGlobals, ...upvalues.map((u) => ('value' in u ? u.value : undefined))].some((v) => typeof v === 'string')
  )
    shape = 'earwigo-palette';
  return { info: { name: storedName(chunk, proto), origin: originOf(proto), shape }, env, table: shape === 'urwigo-table' ? urwigoTable(proto) : null };
}

function originOf(proto: LuaProto): string {
  return `${proto.path} (lines ${proto.lineDefined}–${proto.lastLineDefined})`;
}

/** Where the enclosing function stores the closure: a global, or a field of a global (`_Urwigo.x`); null for a local. */
function storedName(chunk: LuaChunk, proto: LuaProto): string | null {
  const parent = chunk.protos[proto.parent];
  if (!parent) return null;
  const site = closureSite(parent, proto);
  if (site < 0) return null;
  const code = parent.code;
  const reg = code.a[site]!;
  const next = site + 1 + proto.nups;
  if (next >= code.length) return null;
  const kName = (x: number): string | null => {
    const c = parent.k[x];
    return c?.type === 'string' ? c.value.text : null;
  };
  if (code.op[next] === Op.SETGLOBAL && code.a[next] === reg) return kName(bx(code, next));
  if (code.op[next] === Op.SETTABLE && code.c[next] === reg && code.b[next]! >= LUA_RK_CONSTANT) {
    const key = kName(code.b[next]! - LUA_RK_CONSTANT);
    const t = code.a[next]!;
    for (let pc = site - 1; pc >= 0 && key !== null; pc--) {
      if (code.a[pc] !== t) continue;
      return code.op[pc] === Op.GETGLOBAL ? `${kName(bx(code, pc))}.${key}` : null;
    }
  }
  return null;
}

/** An argument as the VM takes it, or why it cannot. */
function vmArgument(v: AbstractValue | undefined): { value: VmValue } | { why: string } {
  if (v === undefined || v.kind === 'nil') return { value: undefined };
  if (v.kind === 'string') return { value: bytesToBinary(v.value.raw) };
  if (v.kind === 'number' || v.kind === 'boolean') return { value: v.value };
  return { why: v.kind === 'unknown' ? v.why : `a ${v.kind} argument` };
}

/**
 * The string decoders of `chunk` (see the file's comment for the shapes and the bounds). Never
 * throws here; `decode` throws a LIMIT_EXCEEDED DecodeError (format `gwc`) once the cartridge's
 * budget is spent.
 */
export function findStringDecoders(chunk: LuaChunk, limits: DecoderLimits = {}): StringDecoders {
  // Only a function that reads a global other than `string`/`math` needs the chunk's constant
  // globals (Earwigo's palette), so the scan for them runs at most once and only then.
  let globals: Map<string, VmValue> | undefined;
  const chunkGlobals = (): Map<string, VmValue> => {
    globals ??= globalConstants(chunk);
    return globals;
  };
  // A chunk that assigns `string` or `math`, or a field of them, has replaced (part of) the
  // library: a function reading it is no decoder the evaluator can follow.
  const replaced = globalsReplaced(chunk, new Set(LIBRARY_GLOBALS.keys()));
  const library = replaced.size === 0 ? LIBRARY_GLOBALS : new Map([...LIBRARY_GLOBALS].filter(([name]) => !replaced.has(name)));
  const byProto = new Map<number, Candidate>();
  for (const proto of chunk.protos) {
    const found = recognise(chunk, proto, library, chunkGlobals);
    if (found) byProto.set(proto.id, found);
  }
  const maxSteps = limits.maxSteps ?? DECODER_CARTRIDGE_STEP_LIMIT;
  const budget: VmBudget = {
    stepsLeft: maxSteps,
    maxStepsPerCall: limits.maxStepsPerCall ?? DECODER_STEP_LIMIT,
    maxStringBytes: limits.maxStringBytes ?? DECODER_STRING_LIMIT,
  };
  const cache = new Map<string, AbstractValue>();
  const limitExceeded = (protoId: number) =>
    decodeError('gwc', 'LIMIT_EXCEEDED', { path: chunk.protos[protoId]!.path, expected: `at most ${maxSteps} string-decoder steps per cartridge` });

  const decode = (protoId: number, args: readonly AbstractValue[]): AbstractValue => {
    const found = byProto.get(protoId);
    if (!found) return { kind: 'unknown', why: `${chunk.protos[protoId]?.path ?? `prototype ${protoId}`} is not a string decoder` };
    const label = found.info.name ?? found.info.origin;
    const first = args[0];
    if (found.table && limits.templates !== false && first?.kind === 'string') {
      // Exactly Urwigo's decoder: one lookup per byte, charged one step per byte, same string bound.
      budget.stepsLeft -= first.value.raw.length;
      if (budget.stepsLeft < 0) throw limitExceeded(protoId);
      if (first.value.raw.length > budget.maxStringBytes)
        return { kind: 'unknown', why: `${label}: built a string past ${budget.maxStringBytes} bytes (the bound)` };
      return { kind: 'string', value: autoText(decodeWithTable(found.table, first.value.raw)), decoded: true };
    }
    const vmArgs: VmValue[] = [];
    for (let i = 0; i < Math.max(args.length, 1); i++) {
      const arg = vmArgument(args[i]);
      if ('why' in arg) return { kind: 'unknown', why: `${label}: argument ${i + 1} is not known (${arg.why})` };
      vmArgs.push(arg.value);
    }
    const key = JSON.stringify([protoId, ...vmArgs.map((v) => [luaType(v), v])]);
    const cached = cache.get(key);
    if (cached) return cached;
    let result: AbstractValue;
    try {
      const out = runProto(chunk.protos[protoId]!, vmArgs, found.env, budget)[0];
      result =
        typeof out === 'string'
          ? { kind: 'string', value: binaryToText(out), decoded: true }
          : { kind: 'unknown', why: `${label} returned a ${luaType(out)}, not a string` };
    } catch (e) {
      if (e instanceof VmBudgetSpent) throw limitExceeded(protoId);
      if (!(e instanceof VmUnknown)) throw e;
      result = { kind: 'unknown', why: `${label}: ${e.why}` };
    }
    cache.set(key, result);
    return result;
  };

  return {
    found: [...byProto.values()].map((c) => c.info),
    isDecoder: (proto) => byProto.has(proto),
    decode,
  };
}

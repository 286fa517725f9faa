// Where control joins in a function's instructions, found in one pass before the abstract one,
// so that pass can stay linear (each instruction once, in pc order) and still never guess: at a
// pc reached from an earlier jump as well as by falling through, whatever was written since the
// earliest such jump is unknown; at a loop head, whatever the loop body writes is unknown.

import { LuaOp, sbx } from '../lua-opcodes.js';
import type { LuaCode, LuaProto } from '../lua-types.js';

// The opcodes as module constants: a switch over them compiles to integer compares.
const {
  CALL: OP_CALL,
  CLOSE: OP_CLOSE,
  CLOSURE: OP_CLOSURE,
  EQ: OP_EQ,
  FORLOOP: OP_FORLOOP,
  FORPREP: OP_FORPREP,
  JMP: OP_JMP,
  LE: OP_LE,
  LOADBOOL: OP_LOADBOOL,
  LOADNIL: OP_LOADNIL,
  LT: OP_LT,
  RETURN: OP_RETURN,
  SELF: OP_SELF,
  SETGLOBAL: OP_SETGLOBAL,
  SETLIST: OP_SETLIST,
  SETTABLE: OP_SETTABLE,
  SETUPVAL: OP_SETUPVAL,
  TAILCALL: OP_TAILCALL,
  TEST: OP_TEST,
  TESTSET: OP_TESTSET,
  TFORLOOP: OP_TFORLOOP,
  VARARG: OP_VARARG,
} = LuaOp;

export interface Flow {
  /** Per pc: the earliest pc that jumps forward to it, or −1. */
  joinFrom: Int32Array;
  /** Per pc: the last pc that jumps back to it (it heads a loop), or −1. */
  loopEnd: Int32Array;
  /**
   * Per pc: 1 when it lies between a forward jump and its target (a write there may be on one
   * path only, so the pass logs it for the join to undo).
   */
  branchy: Int32Array;
  /** Per pc: 1 for the words that are not instructions (SETLIST's count, CLOSURE's upvalue moves). */
  data: Uint8Array;
}

/**
 * The jump structure of `proto` (what its instructions say; targets outside the code are exits).
 * `reuse` is a Flow to fill again (its arrays grow when too small), so a pass over many small
 * functions allocates a few arrays in all, not a few per function. `branches` false skips
 * `branchy` (left as it was), for a pass that keeps no log of writes to undo.
 */
export function flowOf(proto: LuaProto, reuse?: Flow, branches = true): Flow {
  const code = proto.code;
  const n = code.length;
  // Grown by doubling, so functions of rising sizes do not each allocate a new set.
  const flow = reuse && reuse.joinFrom.length > n + 1 ? reuse : emptyFlow(Math.max(n + 2, 2 * (reuse?.joinFrom.length ?? 0), MIN_FLOW));
  const { joinFrom, loopEnd, data, branchy } = flow;
  clear(flow, n + 2, branches);
  let forward = false;
  for (let pc = 0; pc < n; pc++) {
    if (data[pc]) continue;
    let to = -1;
    switch (code.op[pc]!) {
      case OP_JMP:
      case OP_FORLOOP:
      case OP_FORPREP:
        to = pc + 1 + sbx(code, pc);
        break;
      case OP_EQ:
      case OP_LT:
      case OP_LE:
      case OP_TEST:
      case OP_TESTSET:
      case OP_TFORLOOP:
        to = pc + 2;
        break;
      case OP_LOADBOOL:
        if (code.c[pc]) to = pc + 2;
        break;
      case OP_SETLIST:
        if (code.c[pc] === 0 && pc + 1 < n) data[pc + 1] = 1;
        break;
      case OP_CLOSURE: {
        const ups = proto.p[code.raw[pc]! >>> 14]?.nups ?? 0;
        for (let i = 1; i <= ups && pc + i < n; i++) data[pc + i] = 1;
        break;
      }
    }
    if (to < 0 || to > n) continue;
    if (to > pc) {
      if (joinFrom[to] === -1 || pc < joinFrom[to]!) joinFrom[to] = pc;
      // branchy counts open forward jumps: +1 at the jump, −1 at its target (summed below).
      if (branches) {
        branchy[pc]!++;
        branchy[to]!--;
        forward = true;
      }
    } else if (pc > loopEnd[to]!) loopEnd[to] = pc;
  }
  let depth = 0;
  for (let pc = 0; pc <= n && forward; pc++) {
    depth += branchy[pc]!;
    branchy[pc] = depth > 0 ? 1 : 0;
  }
  return flow;
}

/**
 * Empties the first `size` entries of `flow`. A loop, not fill() calls: most functions are a few
 * dozen instructions, fewer than a call of fill costs. Its own function, so that V8 compiles the
 * jump scan above without this loop's on-stack replacement (which, compiled before the scan had
 * run, left it to bail out on every call).
 */
function clear(flow: Flow, size: number, branches: boolean): void {
  const { joinFrom, loopEnd, data, branchy } = flow;
  for (let pc = 0; pc < size; pc++) {
    joinFrom[pc] = -1;
    loopEnd[pc] = -1;
    data[pc] = 0;
  }
  if (branches) branchy.fill(0, 0, size);
}

/** The smallest Flow made: a reused one then grows only for the few functions longer than this. */
const MIN_FLOW = 256;

function emptyFlow(size: number): Flow {
  return { joinFrom: new Int32Array(size), loopEnd: new Int32Array(size), branchy: new Int32Array(size), data: new Uint8Array(size) };
}

/**
 * The lowest register instruction `pc` may write, and the highest (Infinity: every register
 * from the lowest up, as a call with open results does); [−1, −1] when it writes none.
 */
export function writtenRegisters(code: LuaCode, pc: number, out: [number, number]): [number, number] {
  const high = lastWrittenRegister(code.op[pc]!, code.a[pc]!, code.b[pc]!);
  out[0] = high < 0 ? -1 : code.a[pc]!;
  out[1] = high;
  return out;
}

/**
 * The highest register an instruction (opcode, A, B) may write, from A up: Infinity for every
 * register from A up (a call with open results), −1 when it writes none. Two numbers in, one
 * out, so a loop over instructions allocates nothing.
 */
export function lastWrittenRegister(op: number, a: number, b: number): number {
  switch (op) {
    case OP_SETGLOBAL:
    case OP_SETUPVAL:
    case OP_SETTABLE:
    case OP_SETLIST:
    case OP_JMP:
    case OP_EQ:
    case OP_LT:
    case OP_LE:
    case OP_TEST:
    case OP_RETURN:
    case OP_CLOSE:
      return -1;
    case OP_LOADNIL:
      return b;
    case OP_SELF:
      return a + 1;
    case OP_CALL:
    case OP_TAILCALL:
    case OP_VARARG:
    case OP_TFORLOOP:
      return Number.POSITIVE_INFINITY;
    case OP_FORLOOP:
    case OP_FORPREP:
      return a + 3;
    default:
      return a;
  }
}

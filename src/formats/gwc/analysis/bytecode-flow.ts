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
  branchy: Uint8Array;
  /** Per pc: 1 for the words that are not instructions (SETLIST's count, CLOSURE's upvalue moves). */
  data: Uint8Array;
}

/** The jump structure of `proto` (what its instructions say; targets outside the code are exits). */
export function flowOf(proto: LuaProto, protoCount: (bx: number) => number): Flow {
  const code = proto.code;
  const n = code.length;
  const joinFrom = new Int32Array(n + 1).fill(-1);
  const loopEnd = new Int32Array(n + 1).fill(-1);
  const data = new Uint8Array(n + 1);
  const open = new Int32Array(n + 2);
  const edge = (from: number, to: number) => {
    if (to < 0 || to > n) return;
    if (to > from) {
      if (joinFrom[to] === -1 || from < joinFrom[to]!) joinFrom[to] = from;
      open[from]!++;
      open[to]!--;
    } else if (from > loopEnd[to]!) loopEnd[to] = from;
  };
  for (let pc = 0; pc < n; pc++) {
    if (data[pc]) continue;
    const op = code.op[pc]!;
    switch (op) {
      case OP_JMP:
      case OP_FORLOOP:
      case OP_FORPREP:
        edge(pc, pc + 1 + sbx(code, pc));
        break;
      case OP_EQ:
      case OP_LT:
      case OP_LE:
      case OP_TEST:
      case OP_TESTSET:
      case OP_TFORLOOP:
        edge(pc, pc + 2);
        break;
      case OP_LOADBOOL:
        if (code.c[pc]) edge(pc, pc + 2);
        break;
      case OP_SETLIST:
        if (code.c[pc] === 0 && pc + 1 < n) data[pc + 1] = 1;
        break;
      case OP_CLOSURE: {
        const ups = protoCount(code.raw[pc]! >>> 14);
        for (let i = 1; i <= ups && pc + i < n; i++) data[pc + i] = 1;
        break;
      }
    }
  }
  const branchy = new Uint8Array(n + 1);
  let depth = 0;
  for (let pc = 0; pc <= n; pc++) {
    depth += open[pc]!;
    branchy[pc] = depth > 0 ? 1 : 0;
  }
  return { joinFrom, loopEnd, branchy, data };
}

/**
 * The lowest register instruction `pc` may write, and the highest (Infinity: every register
 * from the lowest up, as a call with open results does); [−1, −1] when it writes none.
 */
export function writtenRegisters(code: LuaCode, pc: number, out: [number, number]): [number, number] {
  const a = code.a[pc]!;
  out[0] = a;
  out[1] = a;
  switch (code.op[pc]!) {
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
      out[0] = -1;
      out[1] = -1;
      break;
    case OP_LOADNIL:
      out[1] = code.b[pc]!;
      break;
    case OP_SELF:
      out[1] = a + 1;
      break;
    case OP_CALL:
    case OP_TAILCALL:
    case OP_VARARG:
    case OP_TFORLOOP:
      out[1] = Number.POSITIVE_INFINITY;
      break;
    case OP_FORLOOP:
    case OP_FORPREP:
      out[1] = a + 3;
      break;
  }
  return out;
}

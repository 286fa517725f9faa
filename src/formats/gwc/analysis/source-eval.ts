// A small, bounded interpreter of one string-decoder function's AST (source-decoders.ts says
// which functions qualify): locals, numbers, strings, local tables, if/while/repeat/numeric for,
// and a subset of the string and math libraries. No globals are written, nothing else is called,
// no I/O. Every node costs a step: past the per-call bound the result is unknown; past the
// cartridge's bound (limits.maxDecoderSteps) the caller's analysis stops with LIMIT_EXCEEDED.

import type { Expression, FunctionDeclaration, Statement } from 'luaparse';
import { literalBytes, luaNumberString } from './source-values.js';

/** Steps one decoder call may take; past it the call's result is unknown. */
export const SOURCE_DECODER_STEP_LIMIT = 1_000_000;
/** Bytes a string may grow to inside a decoder; past it the call's result is unknown. */
export const SOURCE_DECODER_STRING_LIMIT = 1 << 20;

export class LuaTable {
  readonly map = new Map<string | number | boolean, Value>();
}
export type LuaFunction = (args: Value[]) => Value[];
export type Value = string | number | boolean | null | LuaTable | LuaFunction;

/** Why an evaluation stopped without a result (the caller reports it as unknown). */
export class CannotEvaluate extends Error {}
/** The cartridge's whole decoder budget is spent. */
export class BudgetSpent extends Error {}

export interface EvalBudget {
  /** Steps used by every call so far, and the most allowed. */
  used: number;
  max: number;
}

type Flow = undefined | 'break' | { ret: Value[] };
type Scope = Map<string, Value>;

/** Runs `fn` on `args`; `free` gives the value of a name the function does not declare. */
export function evaluate(fn: FunctionDeclaration, args: Value[], free: (name: string) => Value | undefined, budget: EvalBudget): Value {
  const ev = new Evaluator(free, budget);
  const scope: Scope = new Map();
  fn.parameters.forEach((p, i) => {
    if (p.type === 'Identifier') scope.set(p.name, args[i] ?? null);
  });
  const flow = ev.block(fn.body, [scope]);
  return typeof flow === 'object' ? (flow.ret[0] ?? null) : null;
}

class Evaluator {
  private steps = 0;
  constructor(
    private readonly free: (name: string) => Value | undefined,
    private readonly budget: EvalBudget,
  ) {}

  private step(): void {
    if (++this.steps > SOURCE_DECODER_STEP_LIMIT) throw new CannotEvaluate(`more than ${SOURCE_DECODER_STEP_LIMIT} steps`);
    if (++this.budget.used > this.budget.max) throw new BudgetSpent();
  }

  block(body: Statement[], scopes: Scope[]): Flow {
    const inner = [...scopes, new Map<string, Value>()];
    for (const s of body) {
      const flow = this.stmt(s, inner);
      if (flow) return flow;
    }
    return undefined;
  }

  private stmt(s: Statement, scopes: Scope[]): Flow {
    this.step();
    switch (s.type) {
      case 'LocalStatement': {
        const values = this.list(s.init, scopes);
        s.variables.forEach((v, i) => scopes[scopes.length - 1]!.set(v.type === 'Identifier' ? v.name : '', values[i] ?? null));
        return undefined;
      }
      case 'AssignmentStatement': {
        const values = this.list(s.init, scopes);
        s.variables.forEach((t, i) => this.assign(t, values[i] ?? null, scopes));
        return undefined;
      }
      case 'CallStatement':
        this.expr(s.expression, scopes);
        return undefined;
      case 'DoStatement':
        return this.block(s.body, scopes);
      case 'ReturnStatement':
        return { ret: this.list(s.arguments, scopes) };
      case 'BreakStatement':
        return 'break';
      case 'IfStatement':
        for (const c of s.clauses) if (c.type === 'ElseClause' || truthy(this.expr(c.condition, scopes))) return this.block(c.body, scopes);
        return undefined;
      case 'WhileStatement':
        while (truthy(this.expr(s.condition, scopes))) {
          const flow = this.block(s.body, scopes);
          if (flow === 'break') break;
          if (flow) return flow;
        }
        return undefined;
      case 'RepeatStatement':
        for (;;) {
          const inner = [...scopes, new Map<string, Value>()];
          let flow: Flow;
          for (const b of s.body) {
            flow = this.stmt(b, inner);
            if (flow) break;
          }
          if (flow === 'break') break;
          if (flow) return flow;
          if (truthy(this.expr(s.condition, inner))) break;
        }
        return undefined;
      case 'ForNumericStatement': {
        const start = num(this.expr(s.start, scopes));
        const end = num(this.expr(s.end, scopes));
        const step = s.step ? num(this.expr(s.step, scopes)) : 1;
        if (step === 0) throw new CannotEvaluate('a for loop with step 0');
        for (let i = start; step > 0 ? i <= end : i >= end; i += step) {
          this.step();
          const flow = this.block(s.body, [...scopes, new Map([[s.variable.name, i]])]);
          if (flow === 'break') break;
          if (flow) return flow;
        }
        return undefined;
      }
      default:
        throw new CannotEvaluate(`a ${s.type}`);
    }
  }

  private assign(t: Expression, v: Value, scopes: Scope[]): void {
    if (t.type === 'Identifier') {
      for (let i = scopes.length - 1; i >= 0; i--)
        if (scopes[i]!.has(t.name)) {
          scopes[i]!.set(t.name, v);
          return;
        }
      throw new CannotEvaluate(`an assignment to the global ${t.name}`);
    }
    if (t.type === 'MemberExpression' || t.type === 'IndexExpression') {
      const base = this.expr(t.base, scopes);
      const key = t.type === 'MemberExpression' ? t.identifier.name : this.expr(t.index, scopes);
      if (!(base instanceof LuaTable) || key === null || typeof key === 'object' || typeof key === 'function')
        throw new CannotEvaluate('an assignment to a field');
      base.map.set(key, v);
      return;
    }
    throw new CannotEvaluate('an assignment');
  }

  private list(exprs: Expression[], scopes: Scope[]): Value[] {
    const out: Value[] = [];
    exprs.forEach((e, i) => {
      if (i === exprs.length - 1 && (e.type === 'CallExpression' || e.type === 'StringCallExpression' || e.type === 'TableCallExpression'))
        out.push(...this.call(e, scopes));
      else out.push(this.expr(e, scopes));
    });
    return out;
  }

  private lookup(name: string, scopes: Scope[]): Value {
    for (let i = scopes.length - 1; i >= 0; i--) if (scopes[i]!.has(name)) return scopes[i]!.get(name)!;
    const v = this.free(name);
    if (v === undefined) throw new CannotEvaluate(`the global ${name}`);
    return v;
  }

  expr(e: Expression, scopes: Scope[]): Value {
    this.step();
    switch (e.type) {
      case 'NilLiteral':
        return null;
      case 'BooleanLiteral':
      case 'NumericLiteral':
        return e.value;
      case 'StringLiteral':
        return literalBytes(e);
      case 'Identifier':
        return this.lookup(e.name, scopes);
      case 'MemberExpression':
        return index(this.expr(e.base, scopes), e.identifier.name);
      case 'IndexExpression':
        return index(this.expr(e.base, scopes), this.expr(e.index, scopes));
      case 'CallExpression':
      case 'StringCallExpression':
      case 'TableCallExpression':
        return this.call(e, scopes)[0] ?? null;
      case 'TableConstructorExpression': {
        const t = new LuaTable();
        let n = 0;
        for (const f of e.fields) {
          if (f.type === 'TableValue') t.map.set(++n, this.expr(f.value, scopes));
          else {
            const key = f.type === 'TableKeyString' ? f.key.name : this.expr(f.key, scopes);
            if (key === null || typeof key === 'object' || typeof key === 'function') throw new CannotEvaluate('a table key');
            t.map.set(key, this.expr(f.value, scopes));
          }
        }
        return t;
      }
      case 'UnaryExpression': {
        const a = this.expr(e.argument, scopes);
        if (e.operator === 'not') return !truthy(a);
        if (e.operator === '-') return -num(a);
        if (typeof a === 'string') return a.length;
        if (a instanceof LuaTable) {
          let n = 0;
          while (a.map.get(n + 1) != null) n++;
          return n;
        }
        throw new CannotEvaluate('# of a value that is not a string or a table');
      }
      case 'LogicalExpression': {
        const a = this.expr(e.left, scopes);
        return (e.operator === 'and') === truthy(a) ? this.expr(e.right, scopes) : a;
      }
      case 'BinaryExpression':
        return binary(e.operator, this.expr(e.left, scopes), this.expr(e.right, scopes));
      default:
        throw new CannotEvaluate(`a ${e.type}`);
    }
  }

  private call(e: Expression & { type: 'CallExpression' | 'StringCallExpression' | 'TableCallExpression' }, scopes: Scope[]): Value[] {
    const args: Value[] = [];
    let fn: Value;
    if (e.base.type === 'MemberExpression' && e.base.indexer === ':') {
      const self = this.expr(e.base.base, scopes);
      fn = index(self, e.base.identifier.name);
      args.push(self);
    } else fn = this.expr(e.base, scopes);
    if (e.type === 'CallExpression') args.push(...this.list(e.arguments, scopes));
    else if (e.type === 'StringCallExpression') args.push(literalBytes(e.argument));
    else args.push(this.expr(e.arguments, scopes));
    if (typeof fn !== 'function') throw new CannotEvaluate('a call of something that is not a library function');
    this.step();
    return fn(args);
  }
}

export function truthy(v: Value): boolean {
  return v !== null && v !== false;
}

function num(v: Value): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  throw new CannotEvaluate('arithmetic on a value that is not a number');
}

/** Indexing: a table's entry, or a string's method (`s:byte`). */
function index(base: Value, key: Value): Value {
  if (base instanceof LuaTable) return key === null || typeof key === 'object' || typeof key === 'function' ? null : (base.map.get(key) ?? null);
  if (typeof base === 'string' && typeof key === 'string') {
    const lib = STRING_LIB.map.get(key);
    if (lib !== undefined) return lib;
  }
  throw new CannotEvaluate('indexing a value that is not a table');
}

function str(v: Value): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return luaNumberString(v);
  throw new CannotEvaluate('a string operation on a value that is not a string or number');
}

function checked(s: string): string {
  if (s.length > SOURCE_DECODER_STRING_LIMIT) throw new CannotEvaluate(`a string longer than ${SOURCE_DECODER_STRING_LIMIT} bytes`);
  return s;
}

function binary(op: string, a: Value, b: Value): Value {
  if (op === '..') return checked(str(a) + str(b));
  if (op === '==') return a === b;
  if (op === '~=') return a !== b;
  if (op === '<' || op === '<=' || op === '>' || op === '>=') {
    if (typeof a === 'string' && typeof b === 'string') return op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : a >= b;
    const x = num(a);
    const y = num(b);
    return op === '<' ? x < y : op === '<=' ? x <= y : op === '>' ? x > y : x >= y;
  }
  const x = num(a);
  const y = num(b);
  if (op === '+') return x + y;
  if (op === '-') return x - y;
  if (op === '*') return x * y;
  if (op === '/') return x / y;
  if (op === '%') return x - Math.floor(x / y) * y;
  if (op === '^') return x ** y;
  throw new CannotEvaluate(`the operator ${op}`);
}

/** Lua's 1-based, negative-from-the-end string position, clamped as string.sub does. */
function position(i: number, len: number): number {
  return i < 0 ? Math.max(len + i + 1, 0) : i;
}

const lib = (entries: Record<string, LuaFunction>): LuaTable => {
  const t = new LuaTable();
  for (const [k, f] of Object.entries(entries)) t.map.set(k, f);
  return t;
};

const STRING_LIB = lib({
  byte: ([s, i, j]) => {
    const x = str(s ?? null);
    const from = position(i == null ? 1 : num(i), x.length);
    const to = position(j == null ? from : num(j), x.length);
    const out: Value[] = [];
    for (let k = Math.max(from, 1); k <= Math.min(to, x.length); k++) out.push(x.charCodeAt(k - 1));
    return out;
  },
  char: (args) => [
    checked(
      args
        .map((a) => {
          const n = num(a);
          if (!Number.isInteger(n) || n < 0 || n > 255) throw new CannotEvaluate('string.char of a value outside 0..255');
          return String.fromCharCode(n);
        })
        .join(''),
    ),
  ],
  sub: ([s, i, j]) => {
    const x = str(s ?? null);
    const from = Math.max(position(i == null ? 1 : num(i), x.length), 1);
    const to = Math.min(position(j == null ? -1 : num(j), x.length), x.length);
    return [from > to ? '' : x.slice(from - 1, to)];
  },
  len: ([s]) => [str(s ?? null).length],
  rep: ([s, n]) => {
    const x = str(s ?? null);
    const times = Math.max(0, Math.floor(num(n ?? null)));
    if (x.length * times > SOURCE_DECODER_STRING_LIMIT) throw new CannotEvaluate('string.rep past the string bound');
    return [x.repeat(times)];
  },
  upper: ([s]) => [str(s ?? null).replace(/[a-z]+/g, (m) => m.toUpperCase())],
  lower: ([s]) => [str(s ?? null).replace(/[A-Z]+/g, (m) => m.toLowerCase())],
  reverse: ([s]) => [[...str(s ?? null)].reverse().join('')],
  find: ([s, p, init, plain]) => {
    const x = str(s ?? null);
    const pat = str(p ?? null);
    // Only plain finds (or patterns without magic characters): a pattern matcher is not needed by any known decoder.
    if (!truthy(plain ?? null) && /[\^$*+?.()[\]%-]/.test(pat)) throw new CannotEvaluate('string.find with a pattern');
    const from = Math.max(position(init == null ? 1 : num(init), x.length), 1);
    const at = x.indexOf(pat, from - 1);
    return at < 0 ? [null] : [at + 1, at + pat.length];
  },
});

const MATH_LIB = lib({
  floor: ([x]) => [Math.floor(num(x ?? null))],
  ceil: ([x]) => [Math.ceil(num(x ?? null))],
  abs: ([x]) => [Math.abs(num(x ?? null))],
  fmod: ([x, y]) => [num(x ?? null) % num(y ?? null)],
  mod: ([x, y]) => [num(x ?? null) % num(y ?? null)],
  max: (args) => [Math.max(...args.map(num))],
  min: (args) => [Math.min(...args.map(num))],
});

/** The globals a decoder may read besides the constants its cartridge gives it. */
export const DECODER_LIBRARY = new Map<string, Value>([
  ['string', STRING_LIB],
  ['math', MATH_LIB],
  ['tostring', ([v]) => [v == null ? 'nil' : typeof v === 'object' || typeof v === 'function' ? 'table' : typeof v === 'boolean' ? String(v) : str(v)]],
  ['tonumber', ([v]) => [typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : null]],
]);

/** The library functions a builder of strings calls (a decoder must build its result). */
export const STRING_BUILDERS = new Set(['char', 'sub', 'rep', 'reverse', 'upper', 'lower']);

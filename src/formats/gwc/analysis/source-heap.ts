// heapFromSource: the AbstractHeap of a GWZ's Lua source (types.ts says how the stages meet),
// found by following the main chunk's top-level statements abstractly over luaparse's AST — the
// same walk heapFromChunk does over the compiled main function, so a GWZ and the GWC compiled from
// it leave the same heap. Nothing is run: a branch or loop is not followed (what it assigns
// becomes unknown), a call of a cartridge function is not followed (noted), and the bodies of
// functions are only read for their texts (source-functions.ts). Calls of a string decoder on
// constants are evaluated by source-decoders.ts.

import type { Call, Expression, FunctionDeclaration, Identifier, Node, Statement } from 'luaparse';
import type { Text } from '../../../core/text.js';
import { recogniseDecoder, type SourceDecoder } from './source-decoders.js';
import { summarizeFunction } from './source-functions.js';
import { lineColumn, parseSource, SOURCE_LIMITS, type SourceLimits, sourceLimitError } from './source-parse.js';
import { binaryOp, byteText, childNodes, describe, literalBytes, textBytes, truthy, unary, unknown } from './source-values.js';
import type { AbstractHeap, AbstractTable, AbstractValue } from './types.js';

export { SOURCE_LIMITS, SOURCE_MAX_DEPTH, type SourceLimits } from './source-parse.js';

/** Nesting of expressions and blocks the walk follows (left-nested operator chains count each operator). */
export const SOURCE_MAX_NESTING = 1000;

/** Names kept per table (one stored under more is still found by its first). */
const MAX_NAMES = 16;

/** Builtins whose call makes a Wherigo object (a table the model reads). */
const CONSTRUCTOR = /^Wherigo\.(Z[A-Za-z]*|Distance|Bearing)$/;

const NIL: AbstractValue = { kind: 'nil' };

export interface SourceHeapOptions {
  limits?: SourceLimits;
  /** The source's name in origins and errors (the GWZ's `luaFile`); default `_cartridge.lua`. */
  fileName?: string;
}

/**
 * The AbstractHeap of Lua source `source` (a GWZ's `lua`). DecodeError (format `gwc`): CORRUPT
 * for a syntax error (its byte offset, line and column), LIMIT_EXCEEDED naming the bound for a
 * source larger than `limits.maxSourceBytes` (checked before parsing), nested deeper than
 * SOURCE_MAX_NESTING or the parser's stack, or needing more than `limits.maxSteps` nodes,
 * `limits.maxTables` tables or `limits.maxDecoderSteps` decoder steps.
 */
export function heapFromSource(source: Text, opts: SourceHeapOptions = {}): AbstractHeap {
  const limits: Required<SourceLimits> = { ...SOURCE_LIMITS };
  for (const [k, v] of Object.entries(opts.limits ?? {})) if (typeof v === 'number') limits[k as keyof SourceLimits] = v;
  const fileName = opts.fileName ?? '_cartridge.lua';
  const parsed = parseSource(source, fileName, limits.maxSourceBytes);
  const walk = new TopLevelWalk(parsed.bytes, fileName, limits);
  walk.run(parsed.chunk.body);
  return walk.finish();
}

type Scope = Map<string, AbstractValue>;

/** A function of the source: its node and the top-level locals it sees. */
interface MadeFunction {
  node: FunctionDeclaration;
  scopes: Scope[];
}

/** What the analysis shares with the readers of function bodies and decoders. */
export interface SourceWalk {
  readonly fileName: string;
  readonly heap: AbstractHeap;
  /** Counts one node against `limits.maxSteps`. */
  step(node: Node): void;
  /** The value a name has for code that sees `scopes` (after the main chunk ran: globals as it left them). */
  lookup(name: string, scopes: readonly Scope[]): AbstractValue;
  /** The decoder a value is, if any. */
  decoderOf(v: AbstractValue): SourceDecoder | undefined;
  /** Lines of a node, for origins. */
  lines(node: Node): string;
}

class TopLevelWalk implements SourceWalk {
  readonly heap: AbstractHeap = { from: 'source', globals: new Map(), tables: [], functions: [], decoders: [], notes: [] };
  private readonly scopes: Scope[] = [new Map()];
  private readonly made: MadeFunction[] = [];
  private readonly decoders = new Map<number, SourceDecoder>();
  private steps = 0;
  private entries = 0;
  private depth = 0;
  private decoderSteps = { used: 0 };
  private done = false;

  constructor(
    private readonly bytes: string,
    readonly fileName: string,
    private readonly limits: Required<SourceLimits>,
  ) {}

  step(node: Node): void {
    if (++this.steps > this.limits.maxSteps) throw sourceLimitError('limits.maxSteps', this.limits.maxSteps, this.fileName, node.range[0]);
  }

  lines(node: Node): string {
    return node.loc.start.line === node.loc.end.line ? `line ${node.loc.start.line}` : `lines ${node.loc.start.line}–${node.loc.end.line}`;
  }

  private where(node: Node): string {
    return `${this.fileName} ${this.lines(node)}`;
  }

  private note(node: Node, what: string): void {
    this.heap.notes.push(`${this.fileName} line ${node.loc.start.line}: ${what}`);
  }

  /** Runs `fn` one level deeper, refusing nesting past SOURCE_MAX_NESTING. */
  private nested<T>(node: Node, fn: () => T): T {
    if (++this.depth > SOURCE_MAX_NESTING) {
      const { line, column } = lineColumn(this.bytes, node.range[0]);
      throw sourceLimitError(
        'SOURCE_MAX_NESTING',
        SOURCE_MAX_NESTING,
        this.fileName,
        node.range[0],
        `the Lua source nests deeper than that at line ${line}, column ${column}`,
      );
    }
    try {
      return fn();
    } finally {
      this.depth--;
    }
  }

  run(body: Statement[]): void {
    for (const s of body) {
      if (this.done) return;
      this.nested(s, () => this.exec(s));
    }
  }

  finish(): AbstractHeap {
    const ctx = { walk: this, decoderSteps: this.decoderSteps, maxDecoderSteps: this.limits.maxDecoderSteps };
    for (let i = 0; i < this.made.length; i++) {
      const m = this.made[i]!;
      Object.assign(this.heap.functions[i]!, summarizeFunction(m.node, m.scopes, ctx));
    }
    return this.heap;
  }

  // ─── Statements ──────────────────────────────────────────────────────────────────────────────

  private exec(s: Statement): void {
    this.step(s);
    switch (s.type) {
      case 'LocalStatement': {
        const values = this.evalList(s.init, s.variables.length);
        s.variables.forEach((v, i) => this.scopes[this.scopes.length - 1]!.set((v as Identifier).name, values[i] ?? NIL));
        return;
      }
      case 'AssignmentStatement': {
        const targets = s.variables.map((t) => this.target(t));
        const values = this.evalList(s.init, targets.length);
        // Lua 5.1 stores the last target first.
        for (let i = targets.length - 1; i >= 0; i--) targets[i]!(values[i] ?? NIL);
        return;
      }
      case 'CallStatement':
        this.call(s.expression);
        return;
      case 'FunctionDeclaration': {
        if (s.isLocal && s.identifier?.type === 'Identifier') this.scopes[this.scopes.length - 1]!.set(s.identifier.name, NIL);
        const target = s.identifier ? this.target(s.identifier) : null;
        const fn = this.makeFunction(s);
        target?.(fn);
        return;
      }
      case 'DoStatement':
        this.scopes.push(new Map());
        try {
          this.run(s.body);
        } finally {
          this.scopes.pop();
        }
        return;
      case 'ReturnStatement':
        this.evalList(s.arguments, 0);
        this.done = true;
        return;
      case 'IfStatement':
      case 'WhileStatement':
      case 'RepeatStatement':
      case 'ForNumericStatement':
      case 'ForGenericStatement':
        this.note(s, `${s.type.replace('Statement', '').toLowerCase()} statement not followed: what it assigns is unknown`);
        this.forget(s);
        return;
      default:
        this.note(s, `${s.type} not followed`);
    }
  }

  /** Makes every global, top-level local and field a statement not followed could assign unknown. */
  private forget(s: Node): void {
    const why = `assigned in a statement not followed at line ${s.loc.start.line}`;
    const stack: Node[] = [s];
    while (stack.length) {
      const node = stack.pop()!;
      this.step(node);
      if (node.type === 'FunctionDeclaration' && (node as FunctionDeclaration).identifier === null) continue; // a body does not run here
      let targets: Expression[] = [];
      if (node.type === 'AssignmentStatement') targets = (node as Statement & { variables: Expression[] }).variables;
      else if (node.type === 'FunctionDeclaration') {
        const f = node as FunctionDeclaration;
        if (!f.isLocal && f.identifier) targets = [f.identifier];
        continue;
      }
      for (const t of targets) {
        if (t.type === 'Identifier') {
          const scope = this.scopeOf(t.name);
          if (scope) scope.set(t.name, unknown(why));
          else this.heap.globals.set(t.name, unknown(why));
        } else if (t.type === 'MemberExpression' || t.type === 'IndexExpression') {
          const base = this.peek(t.base);
          const key =
            t.type === 'MemberExpression'
              ? t.identifier.name
              : t.index.type === 'StringLiteral'
                ? literalBytes(t.index)
                : t.index.type === 'NumericLiteral'
                  ? t.index.value
                  : null;
          if (base.kind === 'table' && key !== null) this.store(base.table, key, unknown(why), t);
        }
      }
      for (const c of childNodes(node)) stack.push(c);
    }
  }

  /** A name or field path's value without evaluating anything that could make a table. */
  private peek(e: Expression): AbstractValue {
    if (e.type === 'Identifier') return this.lookup(e.name, this.scopes);
    if (e.type === 'MemberExpression') return this.index(this.peek(e.base), { kind: 'string', value: byteText(e.identifier.name) });
    return unknown('not a name');
  }

  // ─── Assignment ──────────────────────────────────────────────────────────────────────────────

  /** Evaluates a target's base and key (as Lua does, before the values) and returns its store. */
  private target(t: Expression): (v: AbstractValue) => void {
    if (t.type === 'Identifier') {
      return (v) => {
        const scope = this.scopeOf(t.name);
        if (scope) scope.set(t.name, v);
        else {
          this.heap.globals.set(t.name, v);
          this.named(v, t.name);
        }
      };
    }
    if (t.type === 'MemberExpression' || t.type === 'IndexExpression') {
      const base = this.eval(t.base);
      const key = t.type === 'MemberExpression' ? ({ kind: 'string', value: byteText(t.identifier.name) } as AbstractValue) : this.eval(t.index);
      return (v) => {
        if (base.kind !== 'table') {
          this.note(t, `assignment to a field of ${describe(base)} not followed`);
          return;
        }
        if (key.kind === 'string') this.store(base.table, textBytes(key.value), v, t);
        else if (key.kind === 'number') this.store(base.table, key.value, v, t);
        else this.note(t, `assignment with a key that is ${describe(key)} not followed`);
      };
    }
    this.note(t, 'assignment target not followed');
    return () => {};
  }

  private store(table: number, key: string | number, v: AbstractValue, at: Node): void {
    if (++this.entries > this.limits.maxEntries) throw sourceLimitError('limits.maxEntries', this.limits.maxEntries, this.fileName, at.range[0]);
    const t = this.heap.tables[table]!;
    if (typeof key === 'number') {
      t.items.set(key, v);
      return;
    }
    const name = byteText(key).text;
    t.fields.set(name, v);
    if (t.names.length) this.named(v, `${t.names[0]}.${name}`);
  }

  /**
   * Records that a table (or a decoder) is stored under `path`. A table keeps at most MAX_NAMES;
   * its first name also names the unnamed tables in its fields (`obj.Commands.cmdLook`), as the
   * bytecode front-end names them.
   */
  private named(v: AbstractValue, path: string): void {
    if (v.kind === 'function') {
      const d = this.decoders.get(v.fn);
      if (d && d.info.name === null) d.info.name = path;
      return;
    }
    if (v.kind !== 'table') return;
    const t = this.heap.tables[v.table]!;
    if (t.names.length >= MAX_NAMES || t.names.includes(path)) return;
    t.names.push(path);
    if (t.names.length > 1) return;
    const stack: AbstractTable[] = [t];
    while (stack.length) {
      const parent = stack.pop()!;
      for (const [k, f] of parent.fields) {
        if (f.kind !== 'table') continue;
        const child = this.heap.tables[f.table]!;
        if (child.names.length) continue;
        child.names.push(`${parent.names[0]}.${k}`);
        stack.push(child);
      }
    }
  }

  private scopeOf(name: string): Scope | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) if (this.scopes[i]!.has(name)) return this.scopes[i];
    return undefined;
  }

  lookup(name: string, scopes: readonly Scope[]): AbstractValue {
    for (let i = scopes.length - 1; i >= 0; i--) {
      const v = scopes[i]!.get(name);
      if (v) return v;
    }
    return this.heap.globals.get(name) ?? { kind: 'builtin', name };
  }

  decoderOf(v: AbstractValue): SourceDecoder | undefined {
    return v.kind === 'function' ? this.decoders.get(v.fn) : undefined;
  }

  // ─── Expressions ─────────────────────────────────────────────────────────────────────────────

  /** Evaluates `list` and pads or cuts it to `want` values (0: as many as given). */
  private evalList(list: Expression[], want: number): AbstractValue[] {
    const out = list.map((e) => this.eval(e));
    if (want > out.length && list.length && isMulti(list[list.length - 1]!))
      for (let i = out.length; i < want; i++) out.push(unknown('a further value of a call'));
    return out;
  }

  private eval(e: Expression): AbstractValue {
    return this.nested(e, () => this.evalHere(e));
  }

  private evalHere(e: Expression): AbstractValue {
    this.step(e);
    switch (e.type) {
      case 'NilLiteral':
        return NIL;
      case 'BooleanLiteral':
        return { kind: 'boolean', value: e.value };
      case 'NumericLiteral':
        return { kind: 'number', value: e.value };
      case 'StringLiteral':
        return { kind: 'string', value: byteText(literalBytes(e)) };
      case 'VarargLiteral':
        return unknown('the main chunk’s arguments');
      case 'Identifier':
        return this.lookup(e.name, this.scopes);
      case 'MemberExpression':
        return this.index(this.eval(e.base), { kind: 'string', value: byteText(e.identifier.name) });
      case 'IndexExpression': {
        const base = this.eval(e.base);
        return this.index(base, this.eval(e.index));
      }
      case 'CallExpression':
      case 'TableCallExpression':
      case 'StringCallExpression':
        return this.call(e);
      case 'FunctionDeclaration':
        return this.makeFunction(e);
      case 'TableConstructorExpression': {
        const id = this.newTable(null, e);
        let n = 0;
        for (const f of e.fields) {
          this.step(f);
          if (f.type === 'TableValue') this.store(id, ++n, this.eval(f.value), f);
          else if (f.type === 'TableKeyString') this.store(id, f.key.name, this.eval(f.value), f);
          else {
            const key = this.eval(f.key);
            const value = this.eval(f.value);
            if (key.kind === 'string') this.store(id, textBytes(key.value), value, f);
            else if (key.kind === 'number') this.store(id, key.value, value, f);
            else this.note(f, `table entry with a key that is ${describe(key)} not followed`);
          }
        }
        return { kind: 'table', table: id };
      }
      case 'UnaryExpression':
        return unary(e.operator, this.eval(e.argument));
      case 'BinaryExpression':
      case 'LogicalExpression':
        return this.binary(e.operator, e.left, e.right);
    }
  }

  private index(base: AbstractValue, key: AbstractValue): AbstractValue {
    if (key.kind === 'unknown') return key;
    if (base.kind === 'builtin')
      return key.kind === 'string' ? { kind: 'builtin', name: `${base.name}.${key.value.text}` } : unknown(`${base.name}[${describe(key)}]`);
    if (base.kind === 'string' && key.kind === 'string') return { kind: 'builtin', name: `string.${key.value.text}` };
    if (base.kind !== 'table') return unknown(`a field of ${describe(base)}`);
    if (key.kind !== 'string' && key.kind !== 'number') return unknown('a field whose key is not known');
    // A constructor's table argument holds the object's first fields (`Wherigo.ZItem{ Name = … }`).
    let t: AbstractTable | undefined = this.heap.tables[base.table]!;
    for (let hop = 0; t && hop < 2; hop++) {
      const found = key.kind === 'string' ? t.fields.get(key.value.text) : t.items.get(key.value);
      if (found) return found;
      if (!t.made) return hop === 0 ? NIL : unknown(`${describeKey(key)} not set by the main chunk`);
      const arg: AbstractValue | undefined = t.made.args[0];
      t = arg?.kind === 'table' && !this.heap.tables[arg.table]!.made ? this.heap.tables[arg.table] : undefined;
    }
    return unknown(`${describeKey(key)} not set by the main chunk`);
  }

  private call(e: Call): AbstractValue {
    const method = e.base.type === 'MemberExpression' && e.base.indexer === ':';
    let callee: AbstractValue;
    const args: AbstractValue[] = [];
    if (method && e.base.type === 'MemberExpression') {
      const self = this.eval(e.base.base);
      callee = this.index(self, { kind: 'string', value: byteText(e.base.identifier.name) });
      args.push(self);
    } else callee = this.eval(e.base);
    if (e.type === 'CallExpression') args.push(...this.evalList(e.arguments, 0));
    else if (e.type === 'TableCallExpression') args.push(this.eval(e.arguments));
    else args.push(this.eval(e.argument));

    if (callee.kind === 'builtin') {
      if (CONSTRUCTOR.test(callee.name)) return { kind: 'table', table: this.newTable({ by: callee.name, args }, e) };
      return unknown(`what ${callee.name} returns`);
    }
    const decoder = this.decoderOf(callee);
    if (decoder) return decoder.decode(args, this.decoderSteps, this.limits.maxDecoderSteps, this.fileName, e.range[0]);
    if (callee.kind === 'function') this.note(e, `call of the function at ${this.heap.functions[callee.fn]!.origin} not followed`);
    else this.note(e, `call of ${describe(callee)} not followed`);
    return unknown('what a call the analysis does not follow returns');
  }

  private binary(op: string, left: Expression, right: Expression): AbstractValue {
    const a = this.eval(left);
    if (op === 'and' || op === 'or') {
      const t = truthy(a);
      if (t === null) {
        this.eval(right);
        return unknown(`the value of an ${op} on an unknown`);
      }
      return (op === 'and') === t ? this.eval(right) : a;
    }
    return binaryOp(op, a, this.eval(right));
  }

  private newTable(made: AbstractTable['made'], at: Node): number {
    if (this.heap.tables.length >= this.limits.maxTables) throw sourceLimitError('limits.maxTables', this.limits.maxTables, this.fileName, at.range[0]);
    const id = this.heap.tables.length;
    this.heap.tables.push({ id, made, fields: new Map(), items: new Map(), names: [], origin: `${this.fileName} line ${at.loc.start.line}` });
    return id;
  }

  private makeFunction(node: FunctionDeclaration): AbstractValue {
    const id = this.heap.functions.length;
    if (id >= this.limits.maxFunctions) throw sourceLimitError('limits.maxFunctions', this.limits.maxFunctions, this.fileName, node.range[0]);
    this.heap.functions.push({ id, origin: this.where(node), messages: [], unknownMessages: 0, compares: [], strings: [] });
    const scopes = this.scopes.slice();
    this.made.push({ node, scopes });
    const decoder = recogniseDecoder(node, scopes, this);
    if (decoder) {
      this.decoders.set(id, decoder);
      this.heap.decoders.push(decoder.info);
    }
    return { kind: 'function', fn: id };
  }
}

/** A key as a message shows it: `Name`, `[3]`. */
function describeKey(key: AbstractValue & { kind: 'string' | 'number' }): string {
  return key.kind === 'string' ? key.value.text : `[${key.value}]`;
}

/** True for an expression that can give several values (a call, `...`). */
function isMulti(e: Expression): boolean {
  return e.type === 'CallExpression' || e.type === 'TableCallExpression' || e.type === 'StringCallExpression' || e.type === 'VarargLiteral';
}

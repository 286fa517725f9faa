// What a function of the source shows and compares (AbstractFunction's messages, compares and
// strings), read from its AST after the main chunk ran — handlers run later, so a name in them
// means what the main chunk left. The body is walked iteratively in source order, nested
// functions included; nothing in it is run except calls of string decoders on constants.

import type { Expression, FunctionDeclaration, Node, StringLiteral } from 'luaparse';
import type { Text } from '../../../core/text.js';
import type { SourceWalk } from './source-heap.js';
import { binaryOp, byteText, childNodes, literalBytes } from './source-values.js';
import type { AbstractFunction, AbstractValue } from './types.js';

/** Calls whose table argument's `Text` is shown, and which argument holds it (`list`: a list of such tables). */
const MESSAGE_CALLS: Record<string, { arg: number; list: boolean }> = {
  'Wherigo.MessageBox': { arg: 0, list: false },
  'Wherigo.GetInput': { arg: 0, list: false },
  'Wherigo.Dialog': { arg: 0, list: true },
  '_Urwigo.MessageBox': { arg: 0, list: false },
  '_Urwigo.Dialog': { arg: 1, list: true },
  '_Urwigo.OldDialog': { arg: 0, list: true },
};
const COMPARE_CALLS = new Set(['Wherigo.NoCaseEquals']);
/** Concatenations followed at most when pinning a text down. */
const TEXT_MAX_DEPTH = 200;

type Scope = Map<string, AbstractValue>;
export interface SummaryContext {
  walk: SourceWalk;
  decoderSteps: { used: number };
  maxDecoderSteps: number;
}
type Summary = Pick<AbstractFunction, 'messages' | 'unknownMessages' | 'compares' | 'strings'>;
type CallNode = Node & { type: 'CallExpression' | 'TableCallExpression' | 'StringCallExpression'; base: Expression };

export function summarizeFunction(fn: FunctionDeclaration, scopes: readonly Scope[], ctx: SummaryContext): Summary {
  const out: Summary = { messages: [], unknownMessages: 0, compares: [], strings: [] };
  const seen = new Set<string>();
  const addString = (t: Text) => {
    if (!seen.has(t.text)) {
      seen.add(t.text);
      out.strings.push(t);
    }
  };
  const reader = new Reader(scopes, ctx);
  const stack: Node[] = [...fn.body].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    ctx.walk.step(node);
    let children = childNodes(node);
    if (isCall(node)) {
      const name = reader.calleeName(node.base);
      const args = callArgs(node);
      const decoded = reader.decoderCall(node);
      if (decoded) {
        // The decoded text stands for the obfuscated constant.
        if (decoded.kind === 'string') addString(decoded.value);
        children = children.filter((c) => c === node.base);
      } else if (name && MESSAGE_CALLS[name]) {
        const { arg, list } = MESSAGE_CALLS[name]!;
        const a = args[arg];
        const tables = !a ? [] : list && a.type === 'TableConstructorExpression' ? a.fields.filter((f) => f.type === 'TableValue').map((f) => f.value) : [a];
        if (a && list && a.type !== 'TableConstructorExpression') out.unknownMessages++;
        for (const t of tables) {
          const text = reader.textOf(t);
          if (text) out.messages.push(text);
          else out.unknownMessages++;
        }
      } else if (name && COMPARE_CALLS.has(name)) for (const a of args) pushKnown(out.compares, reader.constant(a));
    } else if (node.type === 'BinaryExpression') {
      const b = node as Node & { operator: string; left: Expression; right: Expression };
      if (b.operator === '==' || b.operator === '~=') {
        pushKnown(out.compares, reader.constant(b.left));
        pushKnown(out.compares, reader.constant(b.right));
      }
    } else if (node.type === 'StringLiteral') addString(byteText(literalBytes(node as StringLiteral)));
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return out;
}

function pushKnown(list: Text[], t: Text | null): void {
  if (t) list.push(t);
}

function isCall(node: Node): node is CallNode {
  return node.type === 'CallExpression' || node.type === 'TableCallExpression' || node.type === 'StringCallExpression';
}

function callArgs(node: CallNode): Expression[] {
  const n = node as unknown as { type: string; arguments: Expression[] | Expression; argument: Expression };
  if (n.type === 'CallExpression') return n.arguments as Expression[];
  return [n.type === 'TableCallExpression' ? (n.arguments as Expression) : n.argument];
}

/** Pins values in a function body down: constants, decoder calls on constants, names the main chunk left. */
class Reader {
  constructor(
    private readonly scopes: readonly Scope[],
    private readonly ctx: SummaryContext,
  ) {}

  /** `Wherigo.MessageBox` for `Wherigo.MessageBox`, or for a name the main chunk set to that builtin. */
  calleeName(e: Expression): string | null {
    const keys: string[] = [];
    let root = e;
    for (; root.type === 'MemberExpression' && root.indexer === '.'; root = root.base) keys.unshift(root.identifier.name);
    if (root.type !== 'Identifier') return null;
    const v = this.ctx.walk.lookup(root.name, this.scopes);
    return [v.kind === 'builtin' ? v.name : root.name, ...keys].join('.');
  }

  /** The value of a name or field path (`_Urwigo.x`, `zoneA`) as the main chunk left it. */
  private value(e: Expression): AbstractValue | null {
    const keys: string[] = [];
    let root = e;
    for (; root.type === 'MemberExpression' && root.indexer === '.'; root = root.base) keys.unshift(root.identifier.name);
    if (root.type !== 'Identifier') return null;
    let v: AbstractValue | undefined = this.ctx.walk.lookup(root.name, this.scopes);
    for (const k of keys) {
      if (v?.kind !== 'table') return null;
      v = this.ctx.walk.heap.tables[v.table]!.fields.get(k);
    }
    return v ?? null;
  }

  /** A call of a string decoder on constants, decoded (or unknown); null when `node` is another call. */
  decoderCall(node: CallNode): AbstractValue | null {
    const callee = this.value(node.base);
    const decoder = callee ? this.ctx.walk.decoderOf(callee) : undefined;
    if (!decoder) return null;
    const args = callArgs(node).map((a) => this.constValue(a, 0));
    return decoder.decode(args, this.ctx.decoderSteps, this.ctx.maxDecoderSteps, this.ctx.walk.fileName, node.range[0]);
  }

  private constValue(e: Expression, depth: number): AbstractValue {
    if (depth > TEXT_MAX_DEPTH) return { kind: 'unknown', why: 'nested too deep' };
    if (e.type === 'StringLiteral') return { kind: 'string', value: byteText(literalBytes(e)) };
    if (e.type === 'NumericLiteral') return { kind: 'number', value: e.value };
    if (e.type === 'BinaryExpression' && e.operator === '..') return binaryOp('..', this.constValue(e.left, depth + 1), this.constValue(e.right, depth + 1));
    if (isCall(e)) return this.decoderCall(e) ?? { kind: 'unknown', why: 'a call' };
    return { kind: 'unknown', why: `a ${e.type}` };
  }

  /** A string constant (a literal, a decoded literal, a concatenation of those), or null. */
  constant(e: Expression): Text | null {
    const v = this.constValue(e, 0);
    return v.kind === 'string' ? v.value : null;
  }

  /** The `Text` of a message table: a constructor's `Text` field, or a named table's as the main chunk left it. */
  textOf(e: Expression): Text | null {
    if (e.type === 'TableConstructorExpression') {
      const f = e.fields.find((x) => x.type === 'TableKeyString' && x.key.name === 'Text');
      return f ? this.constant(f.value) : null;
    }
    const v = this.value(e);
    if (v?.kind !== 'table') return null;
    const text = this.ctx.walk.heap.tables[v.table]!.fields.get('Text');
    return text?.kind === 'string' ? text.value : null;
  }
}

// String decoders in a GWZ's source: the functions obfuscating builders add (Urwigo writes
// `Name = _SwXb0("\036\008\019\119")` into the very source it exports) recognised by their shape
// in the AST, never by name, and evaluated on constant arguments by source-eval.ts. The shapes are
// those of the bytecode's decoders (decoders.ts): `urwigo-table` (a 127-byte table string looked
// up by byte), `earwigo-palette` (characters found in a palette string, `string.find` and
// `string.sub`), `generic` (any other function of one parameter that builds a string and returns
// it, declares all it writes, reads only the string and math libraries and constants, and makes
// no functions). Evaluating such a function on a constant is exact, so a helper that is not an
// obfuscator is still decoded right.

import type { FunctionDeclaration, Node } from 'luaparse';
import { decodeError } from '../../../core/errors.js';
import { BudgetSpent, CannotEvaluate, DECODER_LIBRARY, type EvalBudget, evaluate, STRING_BUILDERS, type Value } from './source-eval.js';
import { sourceLimitError } from './source-parse.js';
import { byteText, childNodes, textBytes, unknown } from './source-values.js';
import type { AbstractValue, StringDecoderInfo } from './types.js';

/** Urwigo's table maps bytes 1..127, so it is 127 bytes long. */
const URWIGO_TABLE_BYTES = 127;
/** Nesting of a decoder's AST the evaluator descends at most (deeper: not taken for a decoder). */
const DECODER_MAX_DEPTH = 200;

export interface SourceDecoder {
  info: StringDecoderInfo;
  /** The decoded string, or unknown; throws LIMIT_EXCEEDED when the cartridge's decoder budget is spent. */
  decode(args: readonly AbstractValue[], used: { used: number }, max: number, fileName: string, at: number): AbstractValue;
}

/** What recognition needs from the walk: the value a free name has, and the node counter. */
interface Scope {
  lookup(name: string, scopes: readonly Map<string, AbstractValue>[]): AbstractValue;
  step(node: Node): void;
  readonly fileName: string;
  lines(node: Node): string;
}

/** The decoder `fn` is (seeing `scopes` as its upvalues), or null when its shape is not a decoder's. */
export function recogniseDecoder(fn: FunctionDeclaration, scopes: readonly Map<string, AbstractValue>[], walk: Scope): SourceDecoder | null {
  if (fn.parameters.length !== 1 || fn.parameters[0]!.type !== 'Identifier') return null;
  const declared = new Set<string>([fn.parameters[0]!.name]);
  const freeReads = new Set<string>();
  const keys = new Set<string>();
  let builds = false;
  let returnsOne = false;
  let longest = 0;
  const stack: [Node, number][] = fn.body.map((s): [Node, number] => [s, 1]).reverse();
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    walk.step(node);
    if (depth > DECODER_MAX_DEPTH) return null;
    switch (node.type) {
      case 'FunctionDeclaration':
      case 'VarargLiteral':
      case 'ForGenericStatement':
      case 'GotoStatement':
        return null;
      case 'LocalStatement':
        for (const v of (node as unknown as { variables: { name: string }[] }).variables) declared.add(v.name);
        break;
      case 'ForNumericStatement':
        declared.add((node as unknown as { variable: { name: string } }).variable.name);
        break;
      case 'AssignmentStatement':
        for (const t of (node as unknown as { variables: Node[] }).variables) {
          let root = t as Node & { base?: Node; name?: string };
          while (root.base) root = root.base as typeof root;
          if (root.type !== 'Identifier' || !declared.has(root.name!)) return null;
        }
        break;
      case 'Identifier':
        if (!declared.has((node as unknown as { name: string }).name)) freeReads.add((node as unknown as { name: string }).name);
        break;
      case 'MemberExpression': {
        const m = node as unknown as { identifier: { name: string }; base: Node };
        keys.add(m.identifier.name);
        stack.push([m.base, depth + 1]);
        continue; // the identifier is a key, not a read
      }
      case 'TableKeyString':
        stack.push([(node as unknown as { value: Node }).value, depth + 1]);
        continue;
      case 'BinaryExpression':
        if ((node as unknown as { operator: string }).operator === '..') builds = true;
        break;
      case 'StringLiteral':
        longest = Math.max(longest, (node as unknown as { value: string }).value.length);
        break;
      case 'ReturnStatement':
        if ((node as unknown as { arguments: unknown[] }).arguments.length === 1) returnsOne = true;
        break;
    }
    // Declarations are seen before the uses after them: children in source order, first first.
    const children = childNodes(node);
    for (let i = children.length - 1; i >= 0; i--) stack.push([children[i]!, depth + 1]);
  }
  for (const k of keys) if (STRING_BUILDERS.has(k)) builds = true;
  if (!builds || !returnsOne) return null;

  // Free names: the libraries, or constants the cartridge gives (a palette string, a key number).
  const constants = new Map<string, Value>();
  for (const name of freeReads) {
    if (DECODER_LIBRARY.has(name)) continue;
    const v = walk.lookup(name, scopes);
    if (v.kind === 'string') constants.set(name, textBytes(v.value));
    else if (v.kind === 'number' || v.kind === 'boolean') constants.set(name, v.value);
    else return null;
  }
  let shape = 'generic';
  if (longest === URWIGO_TABLE_BYTES && keys.has('byte') && keys.has('char')) shape = 'urwigo-table';
  else if (keys.has('find') && keys.has('sub') && constants.size > 0) shape = 'earwigo-palette';
  const info: StringDecoderInfo = { name: null, origin: `${walk.fileName} ${walk.lines(fn)}`, shape };
  const free = (name: string) => DECODER_LIBRARY.get(name) ?? constants.get(name);

  return {
    info,
    decode(args, used, max, fileName, at) {
      const arg = args[0];
      if (arg?.kind !== 'string' && arg?.kind !== 'number') return unknown(`a decoder's argument that is ${arg ? arg.kind : 'missing'}`);
      const budget: EvalBudget = { used: used.used, max };
      try {
        const out = evaluate(fn, [arg.kind === 'string' ? textBytes(arg.value) : arg.value], free, budget);
        if (typeof out !== 'string') return unknown(`the decoder at ${info.origin} returned no string`);
        return { kind: 'string', value: byteText(out), decoded: true };
      } catch (e) {
        if (e instanceof BudgetSpent)
          throw sourceLimitError('limits.maxDecoderSteps', max, fileName, at, 'string decoders took more steps than limits.maxDecoderSteps');
        if (e instanceof CannotEvaluate) return unknown(`the decoder at ${info.origin} does ${e.message}`);
        if (e instanceof RangeError)
          throw decodeError('gwc', 'LIMIT_EXCEEDED', { offset: at, path: fileName, detail: `a string decoder went deeper than the stack (${e.message})` });
        throw e;
      } finally {
        used.used = budget.used;
      }
    },
  };
}

// A function's findings (the texts it shows, compares and holds) as the scan of
// bytecode-functions.ts collects them, and the functions' lists made from them: in source order,
// each nested function's list spliced in where the function is written.

import type { Text } from '../../../core/text.js';
import type { LuaChunk, LuaProto } from '../lua-types.js';
import type { Budget } from './budget.js';
import type { AbstractFunction } from './types.js';

/** An entry of a function's own list, or (a number) the prototype id of a nested function whose list goes there. */
export type Entry<T> = T | number;

/**
 * One sort of findings of the function being scanned, each with the source line it is on (0 when
 * stripped). Reused from function to function: only `items` is made per function.
 */
export class Findings<T> {
  items: Entry<T>[] = [];
  private lines = new Float64Array(64);
  /** False once an entry is out of source order: only then are the entries sorted. */
  private inOrder = true;
  private lastLine = 0;
  private lastNested = false;

  /** Starts the next function's list. */
  start(): void {
    this.items = [];
    this.inOrder = true;
  }

  push(e: Entry<T>, line: number): void {
    const n = this.items.length;
    const nested = typeof e === 'number';
    // Out of order: a line before the last one's, or a call's own entry after a nested function's on one line.
    if (n > 0 && (line < this.lastLine || (line === this.lastLine && this.lastNested && !nested))) this.inOrder = false;
    if (n === this.lines.length) {
      const grown = new Float64Array(2 * n);
      grown.set(this.lines);
      this.lines = grown;
    }
    this.lines[n] = line;
    this.items.push(e);
    this.lastLine = line;
    this.lastNested = nested;
  }

  /** In source order: a nested function's findings sit where it is written, not where it is closed over. */
  ordered(): Entry<T>[] {
    const { items, lines } = this;
    if (this.inOrder) return items;
    const order = items.map((_, i) => i);
    // On one line, a call's own texts come before those of a function written in its arguments.
    const nested = (i: number) => (typeof items[i] === 'number' ? 1 : 0);
    order.sort((x, y) => lines[x]! - lines[y]! || nested(x) - nested(y) || x - y);
    return order.map((i) => items[i]!);
  }
}

/** A function's own findings, in source order. */
export interface Own {
  messages: Entry<Text | null>[];
  compares: Entry<Text>[];
  strings: Entry<Text>[];
  /** True when the lists hold nested functions' places (the same in all three). */
  nests: boolean;
  /** True when `strings` may repeat a text (a nested function's, or a decoded constant's): only then is it made unique. */
  mixed: boolean;
}

/** Every function but the main one from its own findings (`own`, by prototype id), as AbstractFunction (index = prototype id − 1). */
export function functionsOf(chunk: LuaChunk, own: Own[], budget: Budget, base: number): AbstractFunction[] {
  const count = chunk.protos.length;
  // Children come after their parent in `protos` (pre-order), so the last is complete first.
  // Sized up front: filled from the end, an empty array would fall back to slow dictionary elements.
  const messages: (Text | null)[][] = new Array(count);
  const compares: Text[][] = new Array(count);
  const strings: Text[][] = new Array(count);
  const out: AbstractFunction[] = new Array(Math.max(0, count - 1));
  for (let id = count - 1; id >= 1; id--) {
    const p = chunk.protos[id]!;
    const o = own[id]!;
    // No nested function's list to splice in (most functions): the lists are already what is wanted.
    const shown = o.nests ? flatten(o.messages, messages, budget, base, p) : (o.messages as (Text | null)[]);
    messages[id] = shown;
    compares[id] = o.nests ? flatten(o.compares, compares, budget, base, p) : (o.compares as Text[]);
    const all = o.nests ? flatten(o.strings, strings, budget, base, p) : (o.strings as Text[]);
    // One function's constants are unique already (the compiler stores each once).
    strings[id] = o.mixed ? unique(all) : all;
    // The list itself when every message is known (the usual case), else a copy without the unknown ones.
    const known = shown.includes(null) ? withoutNulls(shown) : (shown as Text[]);
    out[id - 1] = {
      id: id - 1,
      origin: `${p.path} (lines ${p.lineDefined}–${p.lastLineDefined})`,
      parent: p.parent > 0 ? p.parent - 1 : null,
      messages: known,
      unknownMessages: shown.length - known.length,
      compares: compares[id]!,
      strings: strings[id]!,
    };
  }
  return out;
}

/** `entries` with each nested function's list (in `done`, by prototype id) spliced in at its place. */
function flatten<T>(entries: Entry<T>[], done: T[][], budget: Budget, base: number, proto: LuaProto): T[] {
  const out: T[] = [];
  for (const e of entries) {
    if (typeof e === 'number') {
      const sub = done[e] ?? [];
      budget.steps += sub.length;
      if (budget.steps > budget.limits.maxSteps) throw budget.exceeded('maxSteps', { offset: base + proto.offset, path: proto.path }, budget.steps);
      for (const x of sub) out.push(x);
    } else out.push(e);
  }
  return out;
}

function withoutNulls(texts: (Text | null)[]): Text[] {
  const out: Text[] = [];
  for (const t of texts) if (t !== null) out.push(t);
  return out;
}

function unique(texts: Text[]): Text[] {
  const seen = new Set<string>();
  const out: Text[] = [];
  for (const t of texts) {
    if (seen.has(t.text)) continue;
    seen.add(t.text);
    out.push(t);
  }
  return out;
}

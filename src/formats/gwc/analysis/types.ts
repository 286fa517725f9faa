// What a cartridge holds, found without running it (#42). Three stages, one file each, meet at
// the two types below:
//
//   bytecode (LuaChunk) ─ heapFromChunk ──┐
//                                          ├─▶ AbstractHeap ─ modelFromHeap ─▶ WherigoModel
//   GWZ source (Lua text) ─ heapFromSource ┘
//
// A front-end follows the main function's statements abstractly (constants, table constructors,
// global and field assignments, calls of the Wherigo constructors) and records what the globals
// and tables hold when it ends: the AbstractHeap. It never runs the Lua: a value it cannot pin
// down is `unknown` with the reason. Obfuscated strings (Urwigo's and Earwigo's decoding
// functions) are decoded on the way by StringDecoders, a bounded evaluator of just those
// functions. The model stage reads the Wherigo objects out of the heap, front-end agnostic, so a
// GWZ and the GWC compiled from it give the same WherigoModel.

import type { Text } from '../../../core/text.js';

// ─── The abstract heap (front-ends → model) ────────────────────────────────────────────────────

/** A value as far as the analysis can know it. */
export type AbstractValue =
  | { kind: 'nil' }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'number'; value: number }
  | {
      kind: 'string';
      value: Text;
      /** True when the text came out of a StringDecoder (the stored constant was obfuscated). */
      decoded?: boolean;
    }
  /** A table: `AbstractHeap.tables[table]`. */
  | { kind: 'table'; table: number }
  /** A Lua function defined in the cartridge: `AbstractHeap.functions[fn]`. */
  | { kind: 'function'; fn: number }
  /**
   * Something the player provides, by its path from a global: `Wherigo`, `Wherigo.ZItem`,
   * `Wherigo.Player`, `Wherigo.INVALID_ZONEPOINT`, `Wherigo.LOGWARNING`, `string`, `math.floor`…
   * (`ZonePoint = Wherigo.ZonePoint` makes the global `ZonePoint` this same value).
   */
  | { kind: 'builtin'; name: string }
  | { kind: 'unknown'; why: string };

/** A table the main function made: a literal, or what a Wherigo constructor returned. */
export interface AbstractTable {
  /** Its index in `AbstractHeap.tables` (creation order). */
  id: number;
  /**
   * The call that made it: a Wherigo constructor as a builtin name (`Wherigo.ZItem`,
   * `Wherigo.Zone`, `Wherigo.ZonePoint`, `Wherigo.Distance`, `Wherigo.ZCommand`, `Wherigo.ZMedia`,
   * `Wherigo.ZCartridge` …) and its arguments as evaluated; null for a table literal `{…}`.
   */
  made: { by: string; args: AbstractValue[] } | null;
  /** Entries with string keys, in the order first set (a later set of a key replaces the value). */
  fields: Map<string, AbstractValue>;
  /** Entries with number keys (array items are 1, 2, …), in the order first set. */
  items: Map<number, AbstractValue>;
  /**
   * Where the analysis saw it stored, first first: a global (`objCompletion`) or a field path
   * from one (`objCompletion.Commands.cmdComplete`). Empty when never stored by name.
   */
  names: string[];
  /** Where it was made, for people: `lua.proto[0] pc 214 (line 276)` or `_cartridge.lua line 276`. */
  origin: string;
}

/** A function defined in the cartridge (a prototype, or a `function … end` of the source). */
export interface AbstractFunction {
  /** Its index in `AbstractHeap.functions`. */
  id: number;
  /** Where it is: `lua.proto[0].p[7] (lines 812–830)` or `_cartridge.lua lines 812–830`. */
  origin: string;
  /**
   * The function it is nested in (an index of `AbstractHeap.functions`); null or absent for a
   * function of the main chunk. Its findings are in that parent's lists too.
   */
  parent?: number | null;
  /**
   * Texts it shows: the `Text` of tables passed to `Wherigo.MessageBox`, `Wherigo.Dialog`,
   * `Wherigo.GetInput`, `_Urwigo.MessageBox`, `_Urwigo.Dialog` (each entry), and of functions
   * nested in it, in code order, decoded when obfuscated. A text it cannot pin down is left out
   * and counted in `unknownMessages`.
   */
  messages: Text[];
  unknownMessages: number;
  /**
   * Strings its input is compared with: the constants of `==`/`~=` tests and of
   * `Wherigo.NoCaseEquals(…)` calls in it and its nested functions, in code order, decoded.
   * For an `OnGetInput` handler these are the answers.
   */
  compares: Text[];
  /** Every string constant it and its nested functions hold, decoded where obfuscated, in code order, repeats kept once. */
  strings: Text[];
}

/** What the main function leaves behind. */
export interface AbstractHeap {
  /** Which front-end made it. */
  from: 'bytecode' | 'source';
  /** Globals in the order first assigned. */
  globals: Map<string, AbstractValue>;
  tables: AbstractTable[];
  functions: AbstractFunction[];
  /** The string-decoding functions found (empty when the cartridge has none). */
  decoders: StringDecoderInfo[];
  /** Things the analysis could not follow, one line each (a branch taken both ways, a call of an unknown function …). */
  notes: string[];
}

// ─── Obfuscated strings ─────────────────────────────────────────────────────────────────────────

/** A function recognised as an obfuscator's string decoder. */
export interface StringDecoderInfo {
  /** The global (or `_Urwigo.x` style field path) it is stored in; null when only a local. */
  name: string | null;
  /** Where it is (a prototype path or a source line range). */
  origin: string;
  /** The shape recognised: `urwigo-table` (a character table looked up by byte), `earwigo-…`, … */
  shape: string;
}

/** Decoding functions of one chunk, evaluated by a bounded interpreter (no general Lua execution). */
export interface StringDecoders {
  found: StringDecoderInfo[];
  /**
   * True when prototype `proto` (an index of `LuaChunk.protos`) is one of `found`.
   */
  isDecoder(proto: number): boolean;
  /**
   * Evaluates decoder `proto` on `args`. The decoded text, or `unknown` (with why) when `proto` is
   * not a decoder, an argument is not known, or the evaluation leaves what the interpreter does or
   * runs out of steps (`DECODER_STEP_LIMIT` per call; the whole cartridge is bounded too).
   */
  decode(proto: number, args: readonly AbstractValue[]): AbstractValue;
}

// ─── The object model (model → every surface) ──────────────────────────────────────────────────

/** A value the analysis could not pin down: shown as unknown, never guessed. */
export interface Unknown {
  unknown: string;
}
export type Maybe<T> = T | Unknown;
export const isUnknown = (v: unknown): v is Unknown => typeof v === 'object' && v !== null && 'unknown' in v;

/** The kinds of Wherigo object, from the constructor that made it. */
export type WherigoKind = 'cartridge' | 'zone' | 'item' | 'character' | 'task' | 'timer' | 'input' | 'media' | 'command' | 'other';

/** `Wherigo.ZonePoint(lat, lon, alt)`; `alt` in metres (from `Wherigo.Distance(v, unit)`), null when not given. */
export interface ZonePoint {
  lat: number;
  lon: number;
  alt: Maybe<number> | null;
}

/** Another object (`n` in `WherigoModel.objects`), or something the player provides (`Player`). */
export type ObjectRef = { n: number } | { builtin: string };

/** An event handler set on an object (`zone.OnEnter = function … end`). */
export interface WherigoHandler {
  /** The field: `OnEnter`, `OnExit`, `OnClick`, `OnGetInput`, `OnTick`, `OnStart`, `OnSetCompleted`, `On<command key>` … */
  event: string;
  /** `AbstractHeap.functions` index. */
  fn: number;
  messages: Text[];
  unknownMessages: number;
}

/** One Wherigo object. A field is null when the cartridge does not set it. */
export interface WherigoObject {
  /** Its index in `WherigoModel.objects` (the order the main function makes them). */
  n: number;
  kind: WherigoKind;
  /** The constructor as called: `Wherigo.ZItem`. */
  maker: string;
  /** The first name it was stored under (`objCompletion`), or null. */
  variable: string | null;
  id: Maybe<string> | null;
  name: Maybe<Text> | null;
  description: Maybe<Text> | null;
  visible: Maybe<boolean> | null;
  active: Maybe<boolean> | null;
  /** Zone: `Points`, in order. */
  points: Maybe<ZonePoint>[] | Unknown | null;
  /** Zone: `OriginalPoint`. */
  originalPoint: Maybe<ZonePoint> | null;
  /** Item, character, task …: `ObjectLocation` (null also for `Wherigo.INVALID_ZONEPOINT`). */
  location: Maybe<ZonePoint> | null;
  container: Maybe<ObjectRef> | null;
  media: Maybe<ObjectRef> | null;
  icon: Maybe<ObjectRef> | null;
  /** Item, character, zone: the `ZCommand` objects of `Commands`, keyed as the table keys them. */
  commands: { key: string; n: number }[];
  /** Command: `Text`, `Enabled`, `CmdWith`. Input: `Text` (the question). */
  text: Maybe<Text> | null;
  enabled: Maybe<boolean> | null;
  /** Input: `InputType` (`Text`, `MultipleChoice`). */
  inputType: Maybe<string> | null;
  /** Input: `Choices`. */
  choices: Maybe<Text>[] | Unknown | null;
  /** Input: the strings its `OnGetInput` handler compares the input with (empty when none found). */
  answers: Text[];
  /** Timer: `Duration` in seconds, `Type` (`Countdown`, `Interval`). */
  duration: Maybe<number> | null;
  timerType: Maybe<string> | null;
  /** Media: `Resources` (`Type`, `Filename`), and the GWC media object number it is (ZMedia n-th made = object n). */
  resources: { type: Maybe<string> | null; filename: Maybe<Text> | null }[];
  mediaObject: number | null;
  handlers: WherigoHandler[];
}

/** A cartridge's objects and messages. */
export interface WherigoModel {
  from: 'bytecode' | 'source';
  objects: WherigoObject[];
  /** Every message shown, by handler: object null for functions not set on an object. */
  messages: { object: number | null; event: string | null; fn: number; text: Text }[];
  decoders: StringDecoderInfo[];
  notes: string[];
}

/**
 * The comparable part of one object, for tests against a cartridge run by a real Lua 5.1 with a
 * recording Wherigo library (test/helpers/wherigo-oracle.ts) and for GWC ↔ GWZ agreement: plain
 * JSON, texts as strings, refs as object numbers, unknowns as `"?"`.
 */
export interface ObjectFacts {
  kind: WherigoKind;
  id: string | null;
  name: string | null;
  description: string | null;
  visible: boolean | '?' | null;
  active: boolean | '?' | null;
  /** [lat, lon] pairs. */
  points: ([number, number] | '?')[] | '?' | null;
  container: number | string | '?' | null;
  media: number | '?' | null;
  icon: number | '?' | null;
  inputType: string | '?' | null;
  choices: (string | '?')[] | '?' | null;
  duration: number | '?' | null;
}

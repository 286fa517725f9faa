// JSON text that is safe to show on a terminal. JSON.stringify escapes only the C0 controls, so
// a C1 control (U+009B is CSI to many terminals) or a bidi override from a file name or a level's
// text would reach `levelkit info --json | less` raw; here they become `\uNNNN`, which every JSON
// reader reads back as the same character.
import { TERMINAL_UNSAFE, unicodeEscape } from './names.js';

const UNSAFE = new RegExp(`[${TERMINAL_UNSAFE}]`, 'g');

/** JSON text (JSON.stringify's output, any indent) with TERMINAL_UNSAFE characters escaped; the same value when read back. */
export function terminalSafeJson(json: string): string {
  // Outside strings JSON holds only ASCII, so every match is inside a string, where `\uNNNN` means the character itself.
  return json.replace(UNSAFE, (c) => unicodeEscape(c.charCodeAt(0)));
}

/** `JSON.stringify(value, null, indent)` made terminal-safe (see terminalSafeJson). */
export function jsonText(value: unknown, indent?: number): string {
  return terminalSafeJson(JSON.stringify(value, null, indent));
}

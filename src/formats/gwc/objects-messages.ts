// messages.txt: every message the cartridge's handlers show, grouped by object and event in the
// order the analysis found them, each under the object's kind, number and name, so a reader can
// follow a cartridge's story without a player. Messages it could not pin down are counted.

import type { WherigoModel } from './analysis/types.js';
import { objectLabel } from './objects-summary.js';

export function messagesText(model: WherigoModel, title: string): string {
  const out = [`Messages of ${oneLine(title)} (read by levelkit from its Lua, without running it)`, ''];
  // Groups by handler (object, event, function), in the order of their first message.
  const groups = new Map<string, { object: number | null; event: string | null; fn: number; texts: string[] }>();
  for (const m of model.messages) {
    const key = `${m.object}/${m.event}/${m.fn}`;
    const g = groups.get(key) ?? { object: m.object, event: m.event, fn: m.fn, texts: [] };
    groups.set(key, g);
    g.texts.push(m.text.text);
  }
  // Handlers whose messages are all unknown still have a heading, with their count.
  for (const o of model.objects)
    for (const h of o.handlers) {
      const key = `${o.n}/${h.event}/${h.fn}`;
      if (h.unknownMessages > 0 && !groups.has(key)) groups.set(key, { object: o.n, event: h.event, fn: h.fn, texts: [] });
    }
  for (const g of groups.values()) {
    const o = g.object === null ? undefined : model.objects[g.object];
    const who = o ? objectLabel(o) : g.object === null ? `function ${g.fn} (not set on an object)` : `object ${g.object}`;
    out.push(`${oneLine(who)}${g.event ? ` ${oneLine(g.event)}` : ''}:`);
    for (const t of g.texts) out.push(`  ${t.replace(/\r\n?|\n/g, '\n  ')}`);
    const unknown = o?.handlers.find((h) => h.fn === g.fn && h.event === g.event)?.unknownMessages ?? 0;
    if (unknown > 0) out.push(`  (${unknown} message${unknown === 1 ? '' : 's'} not known)`);
    out.push('');
  }
  if (groups.size === 0) out.push('No messages found.', '');
  return out.join('\n');
}

function oneLine(s: string): string {
  return s.replace(/[\r\n]+/g, ' ');
}

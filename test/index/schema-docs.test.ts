// The index's docs say what its rows hold: the README's schema table lists every table's columns
// as schema.ts has them, and every object kind and text source the Wherigo object model writes is
// named in the column docs (`levelkit schema`) and in the README's GWC notes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TABLES, tableOf } from '../../src/archive-index/schema.js';
import type { WherigoKind } from '../../src/formats/gwc/analysis/types.js';
import { wherigoRows } from '../../src/formats/gwc/analysis-rows.js';
import { collectRows, levelRow } from '../../src/formats/rows.js';
import { ROOT } from '../helpers/paths.js';
import { sampleModel, wmodel, wobject } from '../helpers/wherigo-model.js';

const README = readFileSync(join(ROOT, 'src/archive-index/README.md'), 'utf8');
const doc = (table: 'objects' | 'texts', column: string) => tableOf(table).columns.find((c) => c.name === column)!.doc;

describe('the index schema docs', () => {
  it("the README's schema table lists each table's columns, in order", () => {
    const rows = new Map<string, string[]>();
    for (const m of README.matchAll(/^\| `(\w+)` \| [^|]+ \| (.+) \|$/gm))
      rows.set(
        m[1]!,
        [...m[2]!.matchAll(/`(\w+)`/g)].map((c) => c[1]!),
      );
    for (const t of TABLES) expect(rows.get(t.name), `README schema row of ${t.name}`).toEqual(t.columns.map((c) => c.name));
  });

  it('names every object kind and text source of the Wherigo object model', () => {
    const kinds: WherigoKind[] = ['cartridge', 'zone', 'item', 'character', 'task', 'timer', 'input', 'media', 'command', 'other'];
    const rows = collectRows((sink) => {
      wherigoRows(wmodel([...sampleModel().objects, ...kinds.map((k, i) => wobject(10 + i, k))]), 0, sink);
      sink.level(levelRow({}));
    });
    const gwcNotes = README.slice(README.indexOf('- **GWC/GWZ**'), README.indexOf('- **wdata**'));
    for (const kind of new Set(rows.objects.map((o) => o.kind))) {
      expect(doc('objects', 'kind'), kind).toContain(kind);
      expect(gwcNotes, kind).toContain(`\`${kind}\``);
    }
    for (const source of new Set(rows.texts.map((t) => t.source))) {
      expect(doc('texts', 'source'), source).toContain(source);
      expect(gwcNotes, source).toContain(`\`${source}\``);
    }
    for (const field of new Set(rows.objects.flatMap((o) => Object.keys(o.fields ?? {})))) expect(gwcNotes, field).toContain(`\`${field}\``);
  });
});

// `levelkit info` on a Wherigo cartridge: the objects its Lua makes (counts by kind, zones with
// their centres, string decoders), added to the summary as `objectModel`. The format's own
// summarize() leaves them out: the analysis costs several plain decodes and is ≈ the size of the
// rest of the format in a bundle, and summaries are what bulk scans make of every file (README.md
// of src/formats/gwc § Objects). info names a handful of files, so it pays for the analysis here.
import { DecodeError, type DecodeOptions, decode, gwc } from '../index.js';
import { printable } from '../scan/names.js';
import type { OkRecord } from '../scan/record.js';

/** The warning code of a cartridge whose objects could not be analysed (the rest of its summary stands). */
export const OBJECT_MODEL_WARNING = 'OBJECT_MODEL';

/** `record` (a GWC's or GWZ's) with `summary.objectModel`, or a warning saying why there is none; other formats' records as they are. */
export function withObjectModel(record: OkRecord, bytes: Uint8Array, opts: DecodeOptions): OkRecord {
  if (record.format !== 'gwc' && record.format !== 'gwz') return record;
  const model = analyse(bytes, opts);
  if (gwc.isUnknown(model))
    return {
      ...record,
      summary: { ...record.summary, objectModel: model },
      warnings: [...record.warnings, { code: OBJECT_MODEL_WARNING, message: model.unknown, offset: null }],
    };
  return { ...record, summary: { ...record.summary, objectModel: gwc.objectsSummary(model) } };
}

function analyse(bytes: Uint8Array, opts: DecodeOptions): gwc.WherigoModel | gwc.Unknown {
  try {
    // A GWC's summary decode holds the whole chunk; a GWZ's leaves its Lua source deflated.
    const value = decode(bytes, { ...opts, sections: 'summary' });
    if (value.format !== 'gwc' && value.format !== 'gwz') return { unknown: `not a cartridge (${value.format})` };
    return gwc.modelOrWhy(value.format === 'gwz' ? gwc.decodeGwz(bytes, { ...opts, sections: 'all' }) : value);
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    return { unknown: `the cartridge's objects could not be analysed: ${e.message}` };
  }
}

/** The text rows of `summary.objectModel`: counts of the kinds present, a row per zone, the string decoders. */
export function objectModelRows(v: gwc.ObjectsSummary | gwc.Unknown): [string, string][] {
  if (gwc.isUnknown(v)) return [['wherigo objects', `not known: ${printable(v.unknown)}`]];
  const counts = gwc.WHERIGO_KINDS.filter((k) => v.byKind[k] > 0).map((k) => `${k} ${v.byKind[k]}`);
  const rows: [string, string][] = [['wherigo objects', counts.length ? counts.join(', ') : 'none found']];
  for (const z of v.zones) {
    const name = z.name === null ? '(no name)' : gwc.isUnknown(z.name) ? '(name not known)' : printable(z.name);
    const at = gwc.isUnknown(z.centre) ? `centre not known: ${printable(z.centre.unknown)}` : `centre ${z.centre.lat.toFixed(6)}, ${z.centre.lon.toFixed(6)}`;
    rows.push(['zone', `${z.n} ${name}, ${at}`]);
  }
  rows.push(['string decoders', v.stringDecoders.length ? printable(v.stringDecoders.join(', ')) : 'none']);
  return rows;
}

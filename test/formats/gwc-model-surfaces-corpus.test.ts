// The object model's surfaces on every corpus cartridge, end to end from its bytes: info's
// summary agrees with the model, extract writes the four files, every zone polygon is a closed
// ring made only of that zone's own points (never a guessed one), every zones.gpx is GPX 1.1, and
// check runs its object rules without an internal error or a failed analysis.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { checkLevel } from '../../src/check/run.js';
import { gwc } from '../../src/index.js';
import { expectGpx11, parseXml } from '../helpers/gpx.js';
import { itCorpus } from '../helpers/needs.js';
import { readBytes } from '../helpers/paths.js';

interface Feature {
  geometry: { type: 'Polygon'; coordinates: [number, number][][] } | null;
  properties: { n: number; why?: string };
}

itCorpus(
  'gwc',
  'every corpus cartridge: summary, extract files, closed rings of its own points, GPX 1.1, check',
  (dir) => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.gwc'));
    expect(files.length).toBeGreaterThan(20);
    let polygons = 0;
    for (const file of files) {
      const c = gwc.decode(readBytes(join(dir, file))) as gwc.GwcCartridge;
      const model = gwc.modelOrWhy(c);
      if (gwc.isUnknown(model)) throw new Error(`${file}: ${model.unknown}`);
      const s = gwc.objectsSummary(model);
      expect(
        Object.values(s.byKind).reduce((a, b) => a + b, 0),
        file,
      ).toBe(model.objects.length);
      expect(s.zones.length, file).toBe(s.byKind.zone);

      const out = new Map(gwc.extract(c).map((f) => [f.path, 'bytes' in f ? new TextDecoder().decode(f.bytes) : '']));
      for (const p of ['objects.json', 'zones.geojson', 'zones.gpx', 'messages.txt']) expect(out.has(p), `${file} ${p}`).toBe(true);
      const features = (JSON.parse(out.get('zones.geojson')!) as { features: Feature[] }).features;
      for (const f of features) {
        const zone = model.objects[f.properties.n]!;
        expect(zone.kind).toBe('zone');
        if (f.geometry === null) {
          expect(f.properties.why, `${file} zone ${zone.n}`).toEqual(expect.any(String));
          continue;
        }
        polygons++;
        const ring = f.geometry.coordinates[0]!;
        expect(ring.length).toBeGreaterThanOrEqual(4);
        expect(ring.at(-1)).toEqual(ring[0]);
        const own = new Set((zone.points as gwc.ZonePoint[]).map((p) => `${p.lon},${p.lat}`));
        for (const [lon, lat] of ring) expect(own.has(`${lon},${lat}`), `${file} zone ${zone.n}`).toBe(true);
      }
      expectGpx11(parseXml(out.get('zones.gpx')!));

      const rules = checkLevel(c).findings.map((f) => f.rule);
      expect(rules, file).not.toContain('check/internal');
      expect(rules, file).not.toContain('gwc/analysis-failed');
    }
    // The corpus has zones with areas: the polygons above were checked, not skipped.
    expect(polygons).toBeGreaterThan(10);
  },
  120_000,
);

// The layers panel's tree of a decoded level, made in the worker: every group and layer with
// its facts, each layer tied to its index among the picture's layers (layersOf), so the page can
// hide it. Matching is by the `gi.li` prefix the picture gives Teeworlds layers, else by order.

import type { AnyDecoded } from '../../src/index.js';
import { str } from '../../src/render/adapters.js';
import type { GroupNode, LayerNode } from './types.js';

const PHYSICS = new Set(['game', 'front', 'tele', 'speedup', 'switch', 'tune']);

/** `names`: the picture's layer names, in order. */
export function layerTree(value: AnyDecoded, names: readonly string[]): GroupNode[] {
  const byName = (prefix: string) => {
    const i = names.findIndex((n) => n === prefix || n.startsWith(`${prefix} `));
    return i < 0 ? null : i;
  };
  if (value.format === 'teeworlds')
    return value.groups.map((g, gi) => ({
      name: str(g.name) || `group ${gi}`,
      parallax: [g.parallaxX, g.parallaxY],
      facts: [
        g.offsetX || g.offsetY ? `offset ${g.offsetX}, ${g.offsetY}` : '',
        g.clipping.enabled ? `clip ${g.clipping.x}, ${g.clipping.y} ${g.clipping.width}×${g.clipping.height}` : '',
      ]
        .filter(Boolean)
        .join(' · '),
      layers: g.layers.map((l, li): LayerNode => {
        const facts: string[] = [];
        if ('width' in l) facts.push(`${l.width}×${l.height}`);
        if ((l.kind === 'tiles' || l.kind === 'quads') && l.image >= 0) facts.push(`image ${l.image} ${str(value.images[l.image]?.name)}`);
        if (l.kind === 'quads') facts.push(`${l.quads?.count ?? '?'} quads`);
        if ('color' in l && (l.color.r !== 255 || l.color.g !== 255 || l.color.b !== 255 || l.color.a !== 255))
          facts.push(`colour ${l.color.r},${l.color.g},${l.color.b},${l.color.a}`);
        if ('colorEnv' in l && l.colorEnv >= 0) facts.push(`colour envelope ${l.colorEnv}`);
        if (l.detail) facts.push('detail');
        return { render: byName(`${gi}.${li}`), name: str(l.name) || l.kind, kind: l.kind, facts: facts.join(' · '), physics: PHYSICS.has(l.kind) };
      }),
    }));
  if (value.format === 'wwd') {
    let k = 0;
    return [
      {
        name: 'planes',
        facts: '',
        layers: value.planes.map((p, i): LayerNode => {
          const drawn = p.tiles.length === p.tilesWide * p.tilesHigh && p.tiles.length > 0;
          const facts = [
            `${p.tilesWide}×${p.tilesHigh} tiles of ${p.tileWidth}×${p.tileHeight}`,
            `movement ${p.movementXPercent}%, ${p.movementYPercent}%`,
            `image sets ${p.imageSetNames.map(str).join(', ') || 'none'}`,
            `${p.objects.count} objects`,
            p.flagBits.main ? 'main' : '',
            p.flagBits.wrapX || p.flagBits.wrapY ? `wraps ${p.flagBits.wrapX ? 'x' : ''}${p.flagBits.wrapY ? 'y' : ''}` : '',
          ];
          return { render: drawn ? k++ : null, name: str(p.name) || `plane ${i}`, kind: 'plane', facts: facts.filter(Boolean).join(' · '), physics: false };
        }),
      },
    ];
  }
  if ((value.format === 'graal' || value.format === 'graal-nw') && 'layers' in value)
    return [
      {
        name: 'layers',
        facts: '',
        layers: value.layers.map(
          (l, i): LayerNode => ({ render: i, name: `layer ${l.index}`, kind: l.index === 0 ? 'base' : 'overlay', facts: '64×64', physics: false }),
        ),
      },
    ];
  // Other formats: the picture's layers as they are.
  return names.length ? [{ name: 'layers', facts: '', layers: names.map((name, i) => ({ render: i, name, kind: '', facts: '', physics: false })) }] : [];
}

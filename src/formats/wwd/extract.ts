// `extract` for WWD: level.json, the whole model with each plane's object table as rows (one
// plain object per object, as objectAt gives it) instead of columns.
import { jsonBytes } from '../../core/json.js';
import type { ExtractedFile } from '../define.js';
import { objectAt } from './objects.js';
import type { WwdLevel } from './types.js';

export function extract(level: WwdLevel): ExtractedFile[] {
  const planes = level.planes.map((p) => ({
    ...p,
    objects: Array.from({ length: p.objects.count }, (_, i) => objectAt(p.objects, i)),
  }));
  return [{ path: 'level.json', bytes: jsonBytes({ ...level, planes }, 'wwd') }];
}

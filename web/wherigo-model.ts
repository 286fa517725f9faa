// The object model of the cartridge the worker decoded, for the page's cartridge panel (#42). The
// analysis runs here, off the page's thread; a model that cannot be made is the panel's message,
// never the file's error (the header, media and picture still show).

import { DecodeError } from '../src/core/errors.js';
import { objectModel } from '../src/formats/gwc/analysis/index.js';
import type { AnyDecoded } from '../src/index.js';
import type { WherigoShown } from './panels/wherigo.js';

/** `{ wherigo }` for a GWC or GWZ value (a full decode), nothing for any other. */
export function wherigoOf(value: AnyDecoded): { wherigo?: WherigoShown } {
  if ((value.format !== 'gwc' && value.format !== 'gwz') || value.sections === 'summary') return {};
  try {
    return { wherigo: { model: objectModel(value) } };
  } catch (e) {
    const code = e instanceof DecodeError ? e.code : 'ANALYSIS_FAILED';
    return { wherigo: { error: { code, message: String((e as Error)?.message ?? e) } } };
  }
}

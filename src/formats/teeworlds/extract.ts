// `extract` for maps: embedded images (as images for the caller to encode), sounds as their
// Opus bytes, and everything else as map.json with each image and sound pointing at its file.
import { jsonBytes } from '../../core/json.js';
import type { ExtractedFile } from '../define.js';
import type { TeeworldsMap } from './types.js';

export function extract(map: TeeworldsMap): ExtractedFile[] {
  const files: ExtractedFile[] = [];
  const images = map.images.map((img, k) => {
    const { pixels, ...rest } = img;
    // A 0 × 0 image (EMPTY_IMAGE) has no picture to write: map.json lists it without a file.
    if (!pixels || pixels.length === 0) return rest;
    const path = `images/${k}-${safeName(img.name.text)}.png`;
    files.push({ path, image: { width: img.width, height: img.height, channels: img.format === 0 ? 3 : 4, pixels: pixels.slice() } });
    return { ...rest, file: path };
  });
  const sounds = map.sounds.map((s, k) => {
    const { data, ...rest } = s;
    if (!data) return rest;
    const path = `sounds/${k}-${safeName(s.name.text)}.opus`;
    files.push({ path, bytes: data.slice() });
    return { ...rest, file: path };
  });
  files.push({ path: 'map.json', bytes: jsonBytes({ ...map, images, sounds }, 'teeworlds') });
  return files;
}

/** A file-name-safe form of an image or sound name. */
function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 64) || 'unnamed';
}

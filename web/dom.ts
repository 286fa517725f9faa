// The two DOM helpers every module of the page uses: an element by id, a new element with its
// text (always set as text, never as HTML) and class.

export const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

export const el = <K extends keyof HTMLElementTagNameMap>(tag: K, text?: string | number, cls?: string): HTMLElementTagNameMap[K] => {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
};

/** Sizes `canvas` to an RGBA picture and puts its pixels on it. */
export function putPicture(canvas: HTMLCanvasElement, p: { width: number; height: number; rgba: ArrayLike<number> }): void {
  canvas.width = p.width;
  canvas.height = p.height;
  const ctx = canvas.getContext('2d')!;
  const img = ctx.createImageData(p.width, p.height);
  img.data.set(p.rgba);
  ctx.putImageData(img, 0, 0);
}

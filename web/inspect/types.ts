// What the worker tells the page about the open file beyond its picture: its layer tree, the
// places of its objects (to centre on them), its envelopes, and the contents of one cell.

/** One layer as the layers panel lists it. */
export interface LayerNode {
  /** Index in the picture's layers (what the worker draws), null when it is not drawn (sounds, an unreadable layer). */
  render: number | null;
  name: string;
  kind: string;
  /** Facts in a few words: size, image, colour, detail. */
  facts: string;
  /** A DDNet physics layer (game, front, tele, speedup, switch, tune): its cells name entities. */
  physics: boolean;
}

/** A group of layers (a Teeworlds group; WWD's and Graal's levels have one). */
export interface GroupNode {
  name: string;
  /** Parallax in percent, x and y (Teeworlds groups, WWD planes' movement), when the format has it. */
  parallax?: [number, number];
  /** Offset, clipping and the like, in a few words. */
  facts: string;
  layers: LayerNode[];
}

/** Where a table row's object is on the picture, in tiles (areas have a size). */
export interface Place {
  table: string;
  row: number;
  x: number;
  y: number;
  w: number;
  h: number;
}

/** One envelope's points, for drawing its curves. */
export interface EnvelopeCurve {
  name: string;
  /** 1 sound, 3 position, 4 colour. */
  channels: number;
  /** Times in ms. */
  time: number[];
  /** Per point, `channels` values as floats (22.10 fixed point read). */
  values: number[][];
  /** Per point, the curve type to the next (0 step, 1 linear, 2 slow, 3 fast, 4 smooth, 5 bezier). */
  curve: number[];
}

/** One layer's content at a cell. */
export interface CellLayer {
  layer: string;
  render: number | null;
  /** The tile index (tile id for WWD, Graal's tile number). */
  index: number;
  /** Everything else, readable: flags and rotation, entity name, numbers. */
  text: string;
}

export interface CellInfo {
  x: number;
  y: number;
  layers: CellLayer[];
}

// The archive index's schema (`levelkit scan --index`, `levelkit query`, `levelkit schema`): its
// tables and typed columns, versioned. Column names are a contract with users' queries: a change
// to any column, or to what one means, is a new SCHEMA_VERSION (test/index/schema.test.ts holds the
// two together), and src/archive-index/README.md ("Schema") documents every column. Every part
// carries the version and its columns' docs in its key-value metadata (parquet/file.ts).

/**
 * Bumped whenever a table or column is added, removed, renamed or retyped, or a column's values
 * change meaning. 4: grid_digest covers the grid's size and is null for a blank grid; author and
 * title are null, never empty; every table has a part; parts carry the version and column docs.
 * 5: levels.grid_signature (the similarity signature families are found by).
 */
export const SCHEMA_VERSION = 5;

/** DuckDB/Parquet types the index uses. */
export type ColumnType = 'VARCHAR' | 'BIGINT' | 'INTEGER' | 'DOUBLE' | 'BOOLEAN' | 'TIMESTAMP';

export interface Column {
  name: string;
  type: ColumnType;
  doc: string;
}

export interface Table {
  name: TableName;
  /** What one row is. */
  row: string;
  columns: readonly Column[];
}

export type TableName = 'files' | 'levels' | 'layers' | 'tiles' | 'objects' | 'texts' | 'images' | 'warnings' | 'findings';

const c = (name: string, type: ColumnType, doc: string): Column => ({ name, type, doc });
const ID = c('id', 'VARCHAR', "the file's id in the index (files.id): unique across runs and shards");

export const TABLES: readonly Table[] = [
  {
    name: 'files',
    row: 'a scanned file or zip member (the latest scan of each path and member; files_all keeps every scan)',
    columns: [
      ID,
      c(
        'path',
        'VARCHAR',
        'the file on disk; levelkit scan makes it absolute from the real path of each folder it is given, so every spelling of a folder is one (\\xNN for bytes of a name that is not UTF-8; before version 3, as typed)',
      ),
      c('member', 'VARCHAR', 'the path inside its zip (nested zips joined by /), null for a plain file'),
      c('bytes', 'BIGINT', 'size of the file or member'),
      c('mtime', 'TIMESTAMP', 'modification time of the file (of the zip, for a member)'),
      c('sha256', 'VARCHAR', 'SHA-256 of the bytes (hex): the same file anywhere has the same value'),
      c('format', 'VARCHAR', 'wwd, teeworlds, graal, graal-nw, graal-gmap, gwc, gwz, wdata; null when none claims it'),
      c('version', 'VARCHAR', "the format's version as summarize() gives it"),
      c('error_code', 'VARCHAR', 'why the file could not be read (TRUNCATED, BAD_MAGIC …), null when it decoded'),
      c('error_message', 'VARCHAR', 'the error in words'),
      c(
        'grid_digest',
        'VARCHAR',
        "SHA-256 of the main tile grid's width, height and cells: the same map re-saved keeps it; null without a grid or for a blank one (every cell the format's empty tile); before version 4, of the cells alone",
      ),
      c('warnings', 'INTEGER', 'number of warnings (rows in warnings)'),
      c('run', 'VARCHAR', 'the scan run that wrote the row'),
      c('scanned_at', 'TIMESTAMP', 'when that run started'),
      c(
        'options',
        'VARCHAR',
        'the scan options that shape the rows, as JSON (depth, maxBytes, limits, strict, encoding, check rules); scan --resume decodes again a file indexed with others; null before version 3',
      ),
    ],
  },
  {
    name: 'levels',
    row: 'a decoded level',
    columns: [
      ID,
      c('format', 'VARCHAR', 'as files.format'),
      c('name', 'VARCHAR', "the level's own name (WWD, GWC)"),
      c('title', 'VARCHAR', 'a title where the format keeps one apart from the name; none of the formats read today does (null)'),
      c('author', 'VARCHAR', 'author (WWD, Teeworlds info, GWC); null when the file gives none (from version 4 never an empty string)'),
      c('flavour', 'VARCHAR', 'Teeworlds ddnet/teeworlds07/infclass/legacy; Graal binary/nw/gmap; GWC cartridge type; wdata main-vN'),
      c('game', 'VARCHAR', 'claw, gruntz, get-medieval, teeworlds, graal, wherigo, rusty-hearts'),
      c('width', 'INTEGER', 'main grid width in tiles'),
      c('height', 'INTEGER', 'main grid height in tiles'),
      c('layers', 'INTEGER', 'rows in layers'),
      c('objects', 'INTEGER', 'rows in objects'),
      c('texts', 'INTEGER', 'rows in texts'),
      c('images', 'INTEGER', 'rows in images'),
      c('summary', 'VARCHAR', "the whole summary as JSON (json_extract(summary, '$.field'))"),
      c(
        'grid_signature',
        'VARCHAR',
        "the main grid's similarity signature (MinHash of its non-uniform 4×4 windows, base64 of 128 bytes): the families view groups levels by it; null without a grid_digest or for a grid under 4×4 or of one-value windows only; null before version 5",
      ),
    ],
  },
  {
    name: 'layers',
    row: 'a layer (Teeworlds), plane (WWD) or board (Graal)',
    columns: [
      ID,
      c('layer', 'INTEGER', 'its index in the level (Teeworlds: across groups, in file order)'),
      c('group', 'INTEGER', 'Teeworlds group index; null elsewhere'),
      c('kind', 'VARCHAR', 'tiles, game, front, tele, speedup, switch, tune, quads, sounds … (Teeworlds); main, plane (WWD); board, gmap (Graal)'),
      c('name', 'VARCHAR', 'its name'),
      c('width', 'INTEGER', 'in tiles'),
      c('height', 'INTEGER', 'in tiles'),
      c('image', 'VARCHAR', 'the image (Teeworlds), image sets joined by commas (WWD), tileset (Graal)'),
    ],
  },
  {
    name: 'tiles',
    row: 'a distinct tile value in a layer, with its count (the histogram)',
    columns: [
      ID,
      c('layer', 'INTEGER', 'as layers.layer'),
      c('kind', 'VARCHAR', 'as layers.kind (game for the Teeworlds game layer)'),
      c('tile', 'BIGINT', 'the tile value: index 0–255 (Teeworlds; the tile type for tele/speedup/switch/tune), tile id (WWD, Graal)'),
      c('count', 'BIGINT', 'cells holding it'),
    ],
  },
  {
    name: 'objects',
    row: 'an object of any kind',
    columns: [
      ID,
      c(
        'kind',
        'VARCHAR',
        'object (WWD); link, baddy, npc, chest, sign, gmap-level (Graal); quad, sound-source, entity (Teeworlds); media, start and the Wherigo objects zone, item, character, task, timer, input, command, zmedia, cartridge, other (GWC/GWZ); the box table (wdata)',
      ),
      c('object', 'INTEGER', 'its position among the level’s objects'),
      c('layer', 'INTEGER', 'the layer or plane it belongs to, where it has one'),
      c('name', 'VARCHAR', 'name (WWD object, baddy type, entity, wdata box, media)'),
      c('logic', 'VARCHAR', "the WWD object's logic; null where a format has none"),
      c('image', 'VARCHAR', 'WWD image set, Teeworlds quad image, Graal NPC image'),
      c(
        'x',
        'DOUBLE',
        "position: pixels (WWD, Teeworlds quads and sounds), tiles (Graal, Teeworlds entities), longitude (GWC start, a zone's centre, an item's or character's location), world units (wdata)",
      ),
      c('y', 'DOUBLE', 'as x (latitude for GWC)'),
      c('width', 'DOUBLE', 'size where it has one (Graal link, Teeworlds quad bounds, wdata box)'),
      c('height', 'DOUBLE', 'as width'),
      c('target', 'VARCHAR', 'what it points at: Graal link level, chest item, gmap level; GWC media type'),
      c('fields', 'VARCHAR', "the format's other fields that are not 0 or empty, as JSON (coalesce(json_extract(fields, '$.score'), 0))"),
    ],
  },
  {
    name: 'texts',
    row: 'a piece of text in a level',
    columns: [
      ID,
      c(
        'source',
        'VARCHAR',
        'sign, npc, baddy-verse, settings, info.author, layer-name, image-name, lua-string, media-name, name, description, trigger, object-name, object-description, object-text, choice, answer, message …',
      ),
      c('text', 'VARCHAR', 'the text'),
      c(
        'object',
        'INTEGER',
        "the object it belongs to (objects.object of the same id): a Graal sign's text, NPC's script or baddy's verse, a GWZ media name, a GWC start's description, a Wherigo object's name, description, question, choices, answers and messages; null for the level's own texts (names, settings, layer names …); null before version 4",
      ),
    ],
  },
  {
    name: 'images',
    row: 'an image a level uses',
    columns: [
      ID,
      c('image', 'INTEGER', 'its index in the level'),
      c('name', 'VARCHAR', 'its name'),
      c('width', 'INTEGER', 'pixels, where known'),
      c('height', 'INTEGER', 'pixels, where known'),
      c('external', 'BOOLEAN', 'true when the level names it but does not hold it'),
      c('pixels_sha256', 'VARCHAR', 'SHA-256 of its RGBA pixels (Teeworlds embedded images; RGB stored as opaque RGBA), so one picture is one value'),
      c('data_sha256', 'VARCHAR', 'SHA-256 of the stored image file (GWC/GWZ media)'),
    ],
  },
  {
    name: 'warnings',
    row: 'a warning the decoder gave',
    columns: [ID, c('code', 'VARCHAR', 'its typed code'), c('message', 'VARCHAR', 'in words'), c('offset', 'BIGINT', 'byte offset, where it has one')],
  },
  {
    name: 'findings',
    row: 'a finding of a check rule (levelkit check; scan --index --check)',
    columns: [
      ID,
      c('rule', 'VARCHAR', 'the rule id, such as tw/unused-image (levelkit check --list-rules)'),
      c('severity', 'VARCHAR', 'error, warning or note'),
      c('message', 'VARCHAR', 'what was found, in words'),
      c('layer', 'INTEGER', 'the layer, plane or table it is in (as layers.layer), where it has one'),
      c('x', 'DOUBLE', 'position: a tile column (Teeworlds, Graal), pixels (WWD), longitude (GWC)'),
      c('y', 'DOUBLE', 'as x (latitude for GWC)'),
      c('object', 'INTEGER', 'the object: WWD object id, GWC object id, an index among the level’s images, envelopes, links, chests …'),
      c('offset', 'BIGINT', 'byte offset in the file, where it has one'),
    ],
  },
];

export function tableOf(name: TableName): Table {
  return TABLES.find((t) => t.name === name)!;
}

// The part of luaparse 0.3 (npm, MIT; it ships no types) that src/formats/gwc/analysis/source-*.ts
// uses: parse() with locations and ranges, and the AST nodes of Lua 5.1. Only what is read here.
declare module 'luaparse' {
  export interface Position {
    line: number;
    column: number;
  }
  export interface Located {
    /** [start, end) as indexes of the parsed string (byte offsets under `encodingMode: 'pseudo-latin1'`). */
    range: [number, number];
    loc: { start: Position; end: Position };
  }
  export interface Identifier extends Located {
    type: 'Identifier';
    name: string;
  }
  export interface StringLiteral extends Located {
    type: 'StringLiteral';
    /** The string's bytes, one char per byte under `pseudo-latin1` (line ends of a long string as written). */
    value: string;
    /** The literal as written, quotes or brackets included. */
    raw: string;
  }
  export interface NumericLiteral extends Located {
    type: 'NumericLiteral';
    value: number;
  }
  export interface BooleanLiteral extends Located {
    type: 'BooleanLiteral';
    value: boolean;
  }
  export interface NilLiteral extends Located {
    type: 'NilLiteral';
  }
  export interface VarargLiteral extends Located {
    type: 'VarargLiteral';
  }
  export interface FunctionDeclaration extends Located {
    type: 'FunctionDeclaration';
    /** null for a function expression. */
    identifier: Identifier | MemberExpression | null;
    isLocal: boolean;
    parameters: (Identifier | VarargLiteral)[];
    body: Statement[];
  }
  export interface TableKey extends Located {
    type: 'TableKey';
    key: Expression;
    value: Expression;
  }
  export interface TableKeyString extends Located {
    type: 'TableKeyString';
    key: Identifier;
    value: Expression;
  }
  export interface TableValue extends Located {
    type: 'TableValue';
    value: Expression;
  }
  export interface TableConstructorExpression extends Located {
    type: 'TableConstructorExpression';
    fields: (TableKey | TableKeyString | TableValue)[];
  }
  export interface BinaryExpression extends Located {
    type: 'BinaryExpression' | 'LogicalExpression';
    operator: string;
    left: Expression;
    right: Expression;
  }
  export interface UnaryExpression extends Located {
    type: 'UnaryExpression';
    operator: string;
    argument: Expression;
  }
  export interface MemberExpression extends Located {
    type: 'MemberExpression';
    indexer: '.' | ':';
    identifier: Identifier;
    base: Expression;
  }
  export interface IndexExpression extends Located {
    type: 'IndexExpression';
    base: Expression;
    index: Expression;
  }
  export interface CallExpression extends Located {
    type: 'CallExpression';
    base: Expression;
    arguments: Expression[];
  }
  export interface TableCallExpression extends Located {
    type: 'TableCallExpression';
    base: Expression;
    arguments: TableConstructorExpression;
  }
  export interface StringCallExpression extends Located {
    type: 'StringCallExpression';
    base: Expression;
    argument: StringLiteral;
  }
  export type Call = CallExpression | TableCallExpression | StringCallExpression;
  export type Expression =
    | Identifier
    | StringLiteral
    | NumericLiteral
    | BooleanLiteral
    | NilLiteral
    | VarargLiteral
    | FunctionDeclaration
    | TableConstructorExpression
    | BinaryExpression
    | UnaryExpression
    | MemberExpression
    | IndexExpression
    | Call;

  interface Block extends Located {
    body: Statement[];
  }
  export interface IfStatement extends Located {
    type: 'IfStatement';
    clauses: ((Block & { type: 'IfClause' | 'ElseifClause'; condition: Expression }) | (Block & { type: 'ElseClause' }))[];
  }
  export type Statement =
    | (Located & { type: 'LocalStatement' | 'AssignmentStatement'; variables: Expression[]; init: Expression[] })
    | (Located & { type: 'CallStatement'; expression: Call })
    | FunctionDeclaration
    | IfStatement
    | (Block & { type: 'WhileStatement'; condition: Expression })
    | (Block & { type: 'RepeatStatement'; condition: Expression })
    | (Block & { type: 'DoStatement' })
    | (Block & { type: 'ForNumericStatement'; variable: Identifier; start: Expression; end: Expression; step: Expression | null })
    | (Block & { type: 'ForGenericStatement'; variables: Identifier[]; iterators: Expression[] })
    | (Located & { type: 'ReturnStatement'; arguments: Expression[] })
    | (Located & { type: 'BreakStatement' | 'GotoStatement' | 'LabelStatement' });

  /** Any node, for walks that do not care which. */
  export type Node = Located & { type: string };

  export interface Chunk {
    type: 'Chunk';
    body: Statement[];
  }
  export interface Options {
    luaVersion?: '5.1' | '5.2' | '5.3' | 'LuaJIT';
    encodingMode?: 'none' | 'pseudo-latin1' | 'x-user-defined';
    locations?: boolean;
    ranges?: boolean;
    comments?: boolean;
    scope?: boolean;
  }
  /** Throws a SyntaxError with `index`, `line` and `column` (0-based) for bad source. */
  export function parse(input: string, options?: Options): Chunk;
}

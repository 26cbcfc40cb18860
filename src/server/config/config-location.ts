/**
 * Where a config problem is, in words a person can act on: `file:line:column` of the offending
 * value, and the path through the file with array items named by their id or name
 * (`account "acme" › token "wallboard" › permissions.0`) rather than by index.
 */
import { findNodeAtLocation, getNodeValue, type Node, type ParseError, parseTree, printParseErrorCode } from 'jsonc-parser';

export interface TextPosition {
  line: number;
  column: number;
}

/** 1-based line and column of a character offset. */
export const positionAt = (text: string, offset: number): TextPosition => {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
};

export interface ParsedConfigText {
  value: unknown;
  tree: Node | undefined;
}

export class JsonSyntaxError extends Error {
  constructor(
    readonly position: TextPosition,
    message: string,
  ) {
    super(message);
    this.name = 'JsonSyntaxError';
  }
}

const SYNTAX_HINTS: Partial<Record<string, string>> = {
  CommaExpected: 'a comma is missing before this point',
  PropertyNameExpected: 'a property name in double quotes was expected (a trailing comma before "}"?)',
  ValueExpected: 'a value was expected (a trailing comma before "]"?)',
  ColonExpected: 'a colon is missing after the property name',
  CloseBraceExpected: 'a closing "}" is missing',
  CloseBracketExpected: 'a closing "]" is missing',
  InvalidSymbol: 'this character cannot start a JSON value (strings need double quotes)',
  InvalidCommentToken: 'JSON does not allow comments',
  UnexpectedEndOfString: 'a string is not closed',
  EndOfFileExpected: 'there is more after the end of the document',
};

/** Strict JSON (no comments, no trailing commas) with the position of the first syntax error. */
export const parseJsonText = (text: string): ParsedConfigText => {
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const [first] = errors;
  if (first) {
    const code = printParseErrorCode(first.error);
    throw new JsonSyntaxError(positionAt(text, first.offset), SYNTAX_HINTS[code] ?? code);
  }
  return { value: tree ? getNodeValue(tree) : undefined, tree };
};

const singular = (key: string) => (key === 'directory' ? 'directory entry' : key.endsWith('s') ? key.slice(0, -1) : key);

/** The item's own label: an `id`, else a `name`, else a `subscriberID`. */
const labelOf = (item: unknown): string | undefined => {
  if (typeof item !== 'object' || item === null) return undefined;
  const record = item as Record<string, unknown>;
  for (const key of ['id', 'name', 'subscriberID']) if (typeof record[key] === 'string' && record[key] !== '') return record[key];
  return undefined;
};

/**
 * `['accounts', 0, 'tokens', 1, 'permissions', 0]` over the parsed value reads
 * `account "acme" › token "wallboard" › permissions.0`.
 */
export const describePath = (value: unknown, path: readonly PropertyKey[]): string => {
  if (path.length === 0) return '(top level)';
  const named: string[] = [];
  let plain: string[] = [];
  let node: unknown = value;
  for (let i = 0; i < path.length; i += 1) {
    const key = path[i] as PropertyKey;
    const next = path[i + 1];
    const child = (node as Record<PropertyKey, unknown> | undefined)?.[key];
    const item = typeof next === 'number' && Array.isArray(child) ? child[next] : undefined;
    const label = labelOf(item);
    if (label !== undefined && typeof key === 'string') {
      named.push(...(plain.length ? [plain.join('.')] : []), `${singular(key)} "${label}"`);
      plain = [];
      node = item;
      i += 1;
      continue;
    }
    plain.push(String(key));
    node = child;
  }
  return [...named, ...(plain.length ? [plain.join('.')] : [])].join(' › ');
};

/** The position of the value at `path`, or of its nearest existing parent (a missing property). */
export const locate = (text: string, tree: Node | undefined, path: readonly PropertyKey[]): TextPosition | undefined => {
  if (!tree) return undefined;
  const segments = path.filter((key): key is string | number => typeof key !== 'symbol');
  for (let length = segments.length; length >= 0; length -= 1) {
    const node = findNodeAtLocation(tree, segments.slice(0, length));
    if (node) return positionAt(text, node.parent?.type === 'property' ? node.parent.offset : node.offset);
  }
  return undefined;
};

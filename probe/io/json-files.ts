// Reading and writing result files. Written results are canonical (keys sorted at every depth, two-space
// indent, trailing newline) so the same observations always give the same bytes and diff cleanly.
import { z } from 'zod';
import { CaseRecordSchema, EnvironmentSchema, RESULT_SCHEMA_VERSION, ResultFileSchema, type CaseRecord, type Environment, type ResultFile, type ResultHeader } from '../core/domain.ts';
import { unlessDropped } from '../core/dropped.ts';
import { InputError } from '../core/errors.ts';
import { terminalJson } from '../core/escape.ts';
import { MAX_JSON_DEPTH, MAX_WRITTEN_JSON_DEPTH, parseJsonText, readInputText } from './files.ts';

/**
 * The JSON text of `value` for a file (`indent` as JSON.stringify's `space`): JSON.stringify's text with
 * every character that acts on a terminal or reorders what a reader sees (DEL, C1, bidi controls,
 * U+2028/2029, U+FEFF; C0 it escapes itself) written as a `\uXXXX` escape (terminalJson), which any JSON
 * parser reads back as the same character (RFC 8259 §7). So `cat` of a file the probe wrote, an editor or
 * GitHub shows what `--format json` shows on stdout (issue 20: Trojan Source, CVE-2021-42574), and the
 * value read back is the one written. Every JSON file the probe writes is made here.
 */
export function jsonText(value: unknown, indent?: number): string {
  return terminalJson(JSON.stringify(value, null, indent));
}

export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/**
 * `value` with the keys of its zod object schema, in the schema's order (the file's reading order), each
 * value passed through `field`. Derived from the schema, so no field can be left out of a file; a key
 * the schema does not know is a programming error, not something to drop quietly.
 */
export function inSchemaOrder(schema: z.ZodObject, value: object, field: (key: string, value: unknown) => unknown = (_key, v) => v): Record<string, unknown> {
  const entries = value as Record<string, unknown>;
  const unknown = Object.keys(entries).filter((key) => !Object.hasOwn(schema.shape, key) && entries[key] !== undefined);
  if (unknown.length > 0) throw new Error(`serialize: ${unknown.join(', ')} not in the schema`);
  const ordered: Record<string, unknown> = {};
  for (const key of Object.keys(schema.shape)) if (entries[key] !== undefined) ordered[key] = field(key, entries[key]);
  return ordered;
}

/** A case record in reading order; the free JSON inside (payloads, tool, expectation, observation) has its keys sorted. */
export function orderCaseRecord(record: CaseRecord): Record<string, unknown> {
  return inSchemaOrder(CaseRecordSchema, record, (_key, value) => sortKeys(value));
}

/** The environment block, its package maps sorted by name. */
export function orderEnvironment(environment: Environment): Record<string, unknown> {
  return inSchemaOrder(EnvironmentSchema, environment, (key, value) => (key === 'packages' || key === 'integrity' ? sortKeys(value) : value));
}

/** Where a case record's fields are in a result file: `{` (0) > `"cases": [` (1) > the record (2) > its fields (3). */
export const CASE_FIELD_LEVEL = 3;

/**
 * The bytes of `value` as `jsonText(value, 2)` writes it with its first line at `level`
 * (two spaces a level), counted without making the text: a value of a few MiB nested a few hundred deep
 * is gigabytes of indentation, past V8's longest string. Walked without recursion.
 */
export function prettyJsonBytes(value: unknown, level: number): number {
  let total = 0;
  const stack: [unknown, number][] = [[value, level]];
  while (stack.length > 0) {
    const [item, at] = stack.pop()!;
    if (item === null || typeof item !== 'object') {
      // Escaped as written: a character terminalJson escapes is 6 bytes in the file, not its 2 or 3 of UTF-8.
      total += Buffer.byteLength(item === undefined ? 'null' : jsonText(item));
      continue;
    }
    const entries = Array.isArray(item) ? item.map((v) => [undefined, v] as const) : Object.entries(item).filter(([, v]) => v !== undefined);
    if (entries.length === 0) {
      total += 2;
      continue;
    }
    // `[` or `{` and a line break; each entry on its own line at `at + 1`, a `,` after all but the last;
    // the closing bracket's line at `at`.
    total += 2 + entries.length * (2 * (at + 1) + 1) + (entries.length - 1) + 2 * at + 1;
    for (const [key, child] of entries) {
      if (key !== undefined) total += Buffer.byteLength(jsonText(key)) + 2;
      stack.push([child, at + 1]);
    }
  }
  return total;
}

/**
 * Structural keys keep the schema's reading order (header first, then the summary, then the cases); the
 * free JSON inside a case has its keys sorted, so a client that reorders keys makes no byte difference.
 */
export function serializeResult(result: ResultFile): string {
  const { cases, ...header } = result;
  return [...serializeResultPieces(header, cases)].join('');
}

/**
 * The text of serializeResult, in pieces: the header (everything but the cases), then one piece per case
 * as `cases` yields it, then the end. `cases` may be a generator reading records from disk one at a time
 * (the audit's journal), so a run of any length is written without holding its records (issue 10).
 */
export function* serializeResultPieces(header: ResultHeader, cases: Iterable<CaseRecord>): Generator<string> {
  // `cases` is the schema's last key, so the header's text is the whole file's up to the cases' array.
  const keys = Object.keys(ResultFileSchema.shape);
  if (keys[keys.length - 1] !== 'cases') throw new Error('serialize: cases must be the last key of a result file');
  const ordered = inSchemaOrder(ResultFileSchema, { ...header, cases: [] }, (key, value) => {
    if (key === 'environment') return orderEnvironment(header.environment);
    if (key === 'matrix' || key === 'summary') return inSchemaOrder(ResultFileSchema.shape[key], value as object);
    return value;
  });
  const empty = jsonText(ordered, 2);
  const opening = '"cases": []\n}';
  if (!empty.endsWith(opening)) throw new Error('serialize: unexpected header text');
  yield empty.slice(0, -']\n}'.length);
  let count = 0;
  for (const record of cases) {
    // JSON.stringify's indentation of an element two levels deep; strings never hold a raw newline.
    yield `${count === 0 ? '\n' : ',\n'}    ${jsonText(orderCaseRecord(record), 2).replaceAll('\n', '\n    ')}`;
    count += 1;
  }
  yield count === 0 ? ']\n}\n' : '\n  ]\n}\n';
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.reduce<string>(
    (text, key) => (typeof key === 'number' ? `${text}[${key}]` : `${text}${text ? '.' : ''}${String(key)}`),
    '',
  );
  return `${where || '(top level)'}: ${issue.message}`;
}

export type RecordedRead = { readonly kind: 'found'; readonly result: ResultFile } | { readonly kind: 'missing' };

/**
 * Reads a recorded result; a file that exists but is not a valid result is an InputError naming it.
 * `replacing`: the caller is about to record this file again (--update), so a file of an older format
 * is as good as none rather than an error (anything else wrong with it still stops the run).
 */
export function readRecordedResult(path: string, options: { readonly replacing?: boolean } = {}): RecordedRead {
  const text = readInputText(path, 'recorded result');
  if (text === undefined) return { kind: 'missing' };
  // Only an older format gives way: a file that is not JSON, or of a newer format, is not ours to replace.
  const format = formatOf(text);
  if (options.replacing && typeof format === 'number' && format < RESULT_SCHEMA_VERSION) return { kind: 'missing' };
  return { kind: 'found', result: parseResultText(text, path) };
}

/**
 * Parses JSON text against a schema; anything wrong is an InputError naming the file and the field.
 * `maxDepth`: MAX_JSON_DEPTH for what a person wrote, MAX_WRITTEN_JSON_DEPTH for a file the probe wrote.
 */
export function parseJsonFile<S extends z.ZodType>(text: string, path: string, schema: S, what: string, maxDepth: number = MAX_JSON_DEPTH): z.infer<S> {
  return validateJson(parseJsonText(text, path, maxDepth), path, schema, what);
}

/** Validates parsed JSON against a schema; the first problem is an InputError naming the file and the field. */
export function validateJson<S extends z.ZodType>(json: unknown, path: string, schema: S, what: string): z.infer<S> {
  let parsed: z.ZodSafeParseResult<z.infer<S>>;
  try {
    parsed = schema.safeParse(json);
  } catch (error) {
    // The depth limit keeps JSON read from files shallow; this is the last line for values built otherwise.
    if (error instanceof RangeError) throw new InputError(`${path}: not a valid ${what}: nested too deeply to validate`);
    throw error;
  }
  if (!parsed.success) {
    const [first] = parsed.error.issues;
    throw new InputError(`${path}: not a valid ${what}: ${first ? describeIssue(first) : parsed.error.message}`);
  }
  return parsed.data;
}

/**
 * validateJson, returning `json` as given (a copy) where zod's output left an own key out: for schemas
 * whose output is their input (no defaults or transforms; every object strict, loose or with a JSON
 * catchall), where the two differ only in key order and the own `__proto__` keys zod 4 leaves out of what
 * it parses. JSON.parse keeps such a key as an own property, and a file must read back as it was written
 * (issue 20).
 */
export function validateJsonAsGiven<S extends z.ZodType>(json: unknown, path: string, schema: S, what: string): z.infer<S> {
  return unlessDropped(json, validateJson(json, path, schema, what));
}

/** parseJsonFile for a schema validateJsonAsGiven suits: the file's values as written (`maxDepth` as for parseJsonFile). */
export function parseJsonFileAsGiven<S extends z.ZodType>(text: string, path: string, schema: S, what: string, maxDepth: number = MAX_JSON_DEPTH): z.infer<S> {
  return validateJsonAsGiven(parseJsonText(text, path, maxDepth), path, schema, what);
}

/** readJsonFile for a schema validateJsonAsGiven suits (a sweep shard for `merge`, say): the file as written. */
export function readJsonFileAsGiven<S extends z.ZodType>(path: string, schema: S, what: string, shown: string = path, maxDepth: number = MAX_JSON_DEPTH): z.infer<S> {
  const text = readInputText(path, what);
  if (text === undefined) throw new InputError(`${shown}: cannot read the ${what} (ENOENT)`);
  return parseJsonFileAsGiven(text, shown, schema, what, maxDepth);
}

/** Reads a JSON file that must exist (`maxDepth` as for parseJsonFile). */
export function readJsonFile<S extends z.ZodType>(path: string, schema: S, what: string, shown: string = path, maxDepth: number = MAX_JSON_DEPTH): z.infer<S> {
  const text = readInputText(path, what);
  if (text === undefined) throw new InputError(`${shown}: cannot read the ${what} (ENOENT)`);
  return parseJsonFile(text, shown, schema, what, maxDepth);
}

/** The `schemaVersion` a result file's text declares, if it is JSON with one. */
function formatOf(text: string): unknown {
  try {
    return (JSON.parse(text) as { schemaVersion?: unknown } | null)?.schemaVersion;
  } catch {
    return undefined;
  }
}

/** A result file's text, as the probe wrote it (so to MAX_WRITTEN_JSON_DEPTH), validated; `path` names it in errors. */
export function parseResultText(text: string, path: string): ResultFile {
  const json = parseJsonFile(text, path, z.unknown(), 'result file', MAX_WRITTEN_JSON_DEPTH);
  const version = (json as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (typeof version === 'number' && version !== RESULT_SCHEMA_VERSION) {
    throw new InputError(`${path}: a result file of format ${version}; this probe reads format ${RESULT_SCHEMA_VERSION} (record it again with --update)`);
  }
  const result = validateJsonAsGiven(json, path, ResultFileSchema, 'result file');
  const seen = new Set<string>();
  for (const [index, record] of result.cases.entries()) {
    if (seen.has(record.id)) throw new InputError(`${path}: not a valid result file: cases[${index}].id: ${record.id} appears twice`);
    seen.add(record.id);
  }
  return result;
}

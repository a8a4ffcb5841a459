// Reading and writing result files. Written results are canonical (keys sorted at every depth, two-space
// indent, trailing newline) so the same observations always give the same bytes and diff cleanly.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { z } from 'zod';
import { ResultFileSchema, type CaseRecord, type ResultFile } from '../core/domain.ts';
import { InputError } from '../core/errors.ts';

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

/** A case record in reading order, its free JSON with sorted keys. */
export function orderCaseRecord(record: CaseRecord): { [K in keyof CaseRecord]: unknown } {
  return {
    id: record.id,
    client: record.client,
    clientPackage: record.clientPackage,
    discovery: record.discovery,
    shape: record.shape,
    verdict: record.verdict,
    mismatches: sortKeys(record.mismatches),
    expected: sortKeys(record.expected),
    observed: sortKeys(record.observed),
    result: sortKeys(record.result),
    tool: sortKeys(record.tool),
  };
}

/**
 * Structural keys keep a fixed reading order (header first, then the summary, then the cases); the free
 * JSON inside a case (payloads, tool, expectation, observation) has its keys sorted, so a client that
 * reorders keys does not make a byte difference.
 */
export function serializeResult(result: ResultFile): string {
  const ordered: { [K in keyof ResultFile]: unknown } = {
    schemaVersion: result.schemaVersion,
    matrix: result.matrix,
    environment: { ...result.environment, packages: sortKeys(result.environment.packages) },
    summary: result.summary,
    lint: result.lint,
    cases: result.cases.map(orderCaseRecord),
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

/** Writes next to the target and renames over it, so a reader never sees a half-written file. */
export function writeFileAtomic(path: string, text: string): void {
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch (error) {
    throw new InputError(`${path}: cannot create its folder (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  try {
    writeFileSync(temporary, text);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new InputError(`${path}: cannot write (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.reduce<string>(
    (text, key) => (typeof key === 'number' ? `${text}[${key}]` : `${text}${text ? '.' : ''}${String(key)}`),
    '',
  );
  return `${where || '(top level)'}: ${issue.message}`;
}

export type RecordedRead = { readonly kind: 'found'; readonly result: ResultFile } | { readonly kind: 'missing' };

/** Reads a recorded result; a file that exists but is not a valid result is an InputError naming it. */
export function readRecordedResult(path: string): RecordedRead {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'missing' };
    throw new InputError(`${path}: cannot read the recorded result (${code ?? String(error)})`);
  }
  return { kind: 'found', result: parseResultText(text, path) };
}

/** Parses JSON text against a schema; anything wrong is an InputError naming the file and the field. */
export function parseJsonFile<S extends z.ZodType>(text: string, path: string, schema: S, what: string): z.infer<S> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new InputError(`${path}: not valid JSON (${(error as Error).message})`);
  }
  return validateJson(json, path, schema, what);
}

/** Validates parsed JSON against a schema; the first problem is an InputError naming the file and the field. */
export function validateJson<S extends z.ZodType>(json: unknown, path: string, schema: S, what: string): z.infer<S> {
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const [first] = parsed.error.issues;
    throw new InputError(`${path}: not a valid ${what}: ${first ? describeIssue(first) : parsed.error.message}`);
  }
  return parsed.data;
}

/** Reads a JSON file that must exist. */
export function readJsonFile<S extends z.ZodType>(path: string, schema: S, what: string): z.infer<S> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new InputError(`${path}: cannot read the ${what} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  return parseJsonFile(text, path, schema, what);
}

export function parseResultText(text: string, path: string): ResultFile {
  const result = parseJsonFile(text, path, ResultFileSchema, 'result file');
  const seen = new Set<string>();
  for (const [index, record] of result.cases.entries()) {
    if (seen.has(record.id)) throw new InputError(`${path}: not a valid result file: cases[${index}].id: ${record.id} appears twice`);
    seen.add(record.id);
  }
  return result;
}

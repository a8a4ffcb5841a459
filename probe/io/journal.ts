// The run journal: each case's record appended as one NDJSON line the moment the case is over, beside
// the result file, so an interrupted run (Ctrl-C, SIGTERM, a kill) loses no finished case and leaves the
// result file as it was (that one is only ever replaced whole). `--resume` reads the journal back; a run
// that completes removes it. The first line says which run it belongs to. The sweep keeps a journal of
// the same kind, one line per finished release (commands/sweep.ts).
import { closeSync, ftruncateSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { CaseRecordSchema, FindingSchema, type CaseRecord, type Finding } from '../core/domain.ts';
import { InputError } from '../core/errors.ts';
import { readInputText } from './files.ts';

const HeaderSchema = z.object({ kind: z.literal('journal'), version: z.literal(1), run: z.string() }).strict();
const LineSchema = z.object({ kind: z.literal('case'), record: CaseRecordSchema, lint: z.array(FindingSchema).nullable() }).strict();

/** Where a result file's journal is. */
export function journalPath(resultPath: string): string {
  return `${resultPath}.journal.ndjson`;
}

/** A fingerprint of what a run is: its cases, their expectations, the clients and the limits. Same run, same print. */
export function runFingerprint(run: unknown): string {
  return createHash('sha256').update(JSON.stringify(run)).digest('hex');
}

export interface Journal {
  append(record: CaseRecord, lint: Finding[] | null): void;
  /** The run completed and its result file is written: the journal has served. */
  finish(): void;
}

/** A journal of any kind of line (the audit's cases, the sweep's releases): one JSON line each. */
export interface LineJournal<T> {
  append(line: T): void;
  /** The run completed and its result file is written: the journal has served. */
  finish(): void;
}

/** Starts a journal for run `run` (a fresh one, or one continued after --resume). */
export function openLineJournal<T>(path: string, run: string, resumed: boolean): LineJournal<T> {
  const fd = openSync(path, resumed ? 'r+' : 'w');
  let position = 0;
  if (resumed) {
    // Continue after the last whole line: a line the interruption cut off is dropped, not glued onto.
    const text = readFileSync(path, 'utf8');
    position = Buffer.byteLength(text.slice(0, text.lastIndexOf('\n') + 1));
    ftruncateSync(fd, position);
  }
  const write = (line: string) => {
    position += writeSync(fd, line, position);
  };
  if (!resumed) write(`${JSON.stringify({ kind: 'journal', version: 1, run })}\n`);
  let open = true;
  return {
    append(line) {
      if (open) write(`${JSON.stringify(line)}\n`);
    },
    finish() {
      if (!open) return;
      open = false;
      closeSync(fd);
      rmSync(path, { force: true });
    },
  };
}

/** Starts the audit's journal of cases for run `run`. */
export function openJournal(path: string, run: string, resumed: boolean): Journal {
  const journal = openLineJournal<z.infer<typeof LineSchema>>(path, run, resumed);
  return { append: (record, lint) => journal.append({ kind: 'case', record, lint }), finish: () => journal.finish() };
}

/** How a journal's lines are named in its messages: `a case record`, `another run (other cases, flags or clients)`. */
export interface JournalWords {
  readonly line: string;
  readonly otherRun: string;
}

/**
 * The lines an interrupted run journalled, in order. The journal must belong to this run (same
 * fingerprint); a last line cut off by the interruption is ignored; anything else malformed is an InputError.
 */
export function readJournalLines<S extends z.ZodType>(path: string, run: string, schema: S, words: JournalWords): z.infer<S>[] {
  const text = readInputText(path, 'run journal');
  if (text === undefined) throw new InputError(`--resume: no journal at ${path}: nothing to resume (run without --resume)`);
  // The last piece is '' after a final newline, or a line the interruption cut off: either way, not a line.
  const complete = text.split('\n').slice(0, -1);
  const [first, ...rest] = complete;
  const header = HeaderSchema.safeParse(safeJson(first));
  if (!header.success) throw new InputError(`${path}: not a run journal (its first line is not a journal header)`);
  if (header.data.run !== run) throw new InputError(`${path}: the journal is of ${words.otherRun}; run without --resume`);
  return rest.map((line, i) => {
    const parsed = schema.safeParse(safeJson(line));
    if (!parsed.success) throw new InputError(`${path}: line ${i + 2} is not ${words.line}`);
    return parsed.data;
  });
}

/** The cases an interrupted audit run finished, by id (see readJournalLines). */
export function readJournal(path: string, run: string): Map<string, { record: CaseRecord; lint: Finding[] | null }> {
  const lines = readJournalLines(path, run, LineSchema, { line: 'a case record', otherRun: 'another run (other cases, flags or clients)' });
  return new Map(lines.map((line) => [line.record.id, { record: line.record, lint: line.lint }]));
}

function safeJson(line: string | undefined): unknown {
  try {
    return line === undefined ? undefined : JSON.parse(line);
  } catch {
    return undefined;
  }
}

// The run journal: each case's record appended as one NDJSON line the moment the case is over, beside
// the result file, so an interrupted run (Ctrl-C, SIGTERM, a kill) loses no finished case and leaves the
// result file as it was (that one is only ever replaced whole). `--resume` reads the journal back; a run
// that completes removes it. The first line says which run it belongs to. The sweep keeps a journal of
// the same kind, one line per finished release (commands/sweep.ts).
import { closeSync, ftruncateSync, openSync, readFileSync, readSync, rmSync, writeSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { CaseRecordSchema, FindingSchema, type CaseRecord, type Finding } from '../core/domain.ts';
import { unlessDropped } from '../core/dropped.ts';
import { InputError } from '../core/errors.ts';
import { readInputText } from './files.ts';
import { jsonText } from './json-files.ts';

const HeaderSchema = z.object({ kind: z.literal('journal'), version: z.literal(1), run: z.string() }).strict();
const LineSchema = z.object({ kind: z.literal('case'), record: CaseRecordSchema, lint: z.array(FindingSchema).nullable() }).strict();

/** Where a result file's journal is. */
export function journalPath(resultPath: string): string {
  return `${resultPath}.journal.ndjson`;
}

/**
 * A fingerprint of what a run is: its cases, their expectations, the clients and the limits. Same run,
 * same print. `cases` are hashed one at a time, never as one text (10,000 cases would make it ~15 MB).
 */
export function runFingerprint(run: unknown, cases: Iterable<unknown> = []): string {
  const hash = createHash('sha256').update(JSON.stringify(run));
  for (const item of cases) hash.update('\n').update(JSON.stringify(item));
  return hash.digest('hex');
}

export interface Journal {
  append(record: CaseRecord, lint: Finding[] | null): void;
  /**
   * The records of these cases, read back from the journal one at a time as the iteration asks for them
   * (the canonical result is assembled from them: nothing holds a long run's records at once).
   */
  records(ids: Iterable<string>): Generator<CaseRecord>;
  /** The run completed and its result file is written: the journal has served. */
  finish(): void;
}

/** Where one line of a journal is: its byte offset and length. */
export interface LinePlace {
  readonly at: number;
  readonly bytes: number;
}

/** A journal of any kind of line (the audit's cases, the sweep's releases): one JSON line each. */
export interface LineJournal<T> {
  /** Appends the line; where it went, for `read` (nothing once finished). */
  append(line: T): LinePlace | undefined;
  /** The line at this place, read back from the file (so a long run need not keep it in memory). */
  read(place: LinePlace): T;
  /** The lines a resumed journal already had, where they are, in order (none for a fresh one). */
  readonly earlier: readonly LinePlace[];
  /** The run completed and its result file is written: the journal has served. */
  finish(): void;
}

/** Starts a journal for run `run` (a fresh one, or one continued after --resume). */
export function openLineJournal<T>(path: string, run: string, resumed: boolean): LineJournal<T> {
  const fd = openSync(path, resumed ? 'r+' : 'w+');
  let position = 0;
  const earlier: LinePlace[] = [];
  if (resumed) {
    // Continue after the last whole line: a line the interruption cut off is dropped, not glued onto.
    const text = readFileSync(path, 'utf8');
    const whole = text.slice(0, text.lastIndexOf('\n') + 1);
    position = Buffer.byteLength(whole);
    ftruncateSync(fd, position);
    let at = 0;
    for (const [i, line] of whole.split('\n').slice(0, -1).entries()) {
      const bytes = Buffer.byteLength(line) + 1;
      if (i > 0) earlier.push({ at, bytes }); // the first line is the header
      at += bytes;
    }
  }
  const write = (line: string): LinePlace => {
    const bytes = Buffer.from(line);
    const at = position;
    for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written, bytes.length - written, at + written);
    position += bytes.length;
    return { at, bytes: bytes.length };
  };
  if (!resumed) write(`${jsonText({ kind: 'journal', version: 1, run })}\n`);
  let open = true;
  return {
    earlier,
    append(line) {
      return open ? write(`${jsonText(line)}\n`) : undefined;
    },
    read({ at, bytes }) {
      const buffer = Buffer.allocUnsafe(bytes);
      for (let done = 0; done < bytes; ) {
        const got = readSync(fd, buffer, done, bytes - done, at + done);
        if (got === 0) throw new Error(`journal: the line at byte ${at} is cut short`);
        done += got;
      }
      return JSON.parse(buffer.toString('utf8')) as T;
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
  type CaseLine = z.infer<typeof LineSchema>;
  const journal = openLineJournal<CaseLine>(path, run, resumed);
  // Where each case's line is, by id: all a run keeps of a finished case's record.
  const places = new Map<string, LinePlace>();
  for (const place of journal.earlier) places.set(journal.read(place).record.id, place);
  return {
    append(record, lint) {
      const place = journal.append({ kind: 'case', record, lint });
      if (place) places.set(record.id, place);
    },
    *records(ids) {
      for (const id of ids) {
        const place = places.get(id);
        if (!place) throw new Error(`journal: no record of case ${id}`);
        yield journal.read(place).record;
      }
    },
    finish: () => journal.finish(),
  };
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
    const json = safeJson(line);
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new InputError(`${path}: line ${i + 2} is not ${words.line}`);
    // The line as written where zod's output lost an own `__proto__` key of a record's JSON (core/dropped.ts
    // unlessDropped): a resumed case must be the case that was journalled.
    return unlessDropped(json, parsed.data);
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

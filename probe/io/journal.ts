// The run journal: each case's record appended as one NDJSON line the moment the case is over, beside
// the result file, so an interrupted run (Ctrl-C, SIGTERM, a kill) loses no finished case and leaves the
// result file as it was (that one is only ever replaced whole). `--resume` reads the journal back; a run
// that completes removes it. The first line says which run it belongs to.
import { closeSync, ftruncateSync, openSync, readFileSync, readSync, rmSync, writeSync } from 'node:fs';
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

/** Starts a journal for run `run` (a fresh one, or one continued after --resume). */
export function openJournal(path: string, run: string, resumed: boolean): Journal {
  const fd = openSync(path, resumed ? 'r+' : 'w+');
  let position = 0;
  // Where each case's line is (byte offset and length), by id: all a run keeps of a finished case's record.
  const lines = new Map<string, { at: number; bytes: number }>();
  if (resumed) {
    // Continue after the last whole line: a line the interruption cut off is dropped, not glued onto.
    const text = readFileSync(path, 'utf8');
    const whole = text.slice(0, text.lastIndexOf('\n') + 1);
    position = Buffer.byteLength(whole);
    ftruncateSync(fd, position);
    let at = 0;
    for (const [i, line] of whole.split('\n').slice(0, -1).entries()) {
      const bytes = Buffer.byteLength(line) + 1;
      if (i > 0) lines.set((JSON.parse(line) as { record: CaseRecord }).record.id, { at, bytes });
      at += bytes;
    }
  }
  const write = (line: string) => {
    const bytes = Buffer.from(line);
    const at = position;
    for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written, bytes.length - written, at + written);
    position += bytes.length;
    return { at, bytes: bytes.length };
  };
  if (!resumed) write(`${JSON.stringify({ kind: 'journal', version: 1, run })}\n`);
  let open = true;
  return {
    append(record, lint) {
      if (open) lines.set(record.id, write(`${JSON.stringify({ kind: 'case', record, lint })}\n`));
    },
    *records(ids) {
      for (const id of ids) {
        const line = lines.get(id);
        if (!line) throw new Error(`journal: no record of case ${id}`);
        const buffer = Buffer.allocUnsafe(line.bytes);
        for (let read = 0; read < line.bytes; ) {
          const got = readSync(fd, buffer, read, line.bytes - read, line.at + read);
          if (got === 0) throw new Error(`journal: the line of case ${id} is cut short`);
          read += got;
        }
        yield (JSON.parse(buffer.toString('utf8')) as { record: CaseRecord }).record;
      }
    },
    finish() {
      if (!open) return;
      open = false;
      closeSync(fd);
      rmSync(path, { force: true });
    },
  };
}

/**
 * The cases an interrupted run finished, by id. The journal must belong to this run (same fingerprint);
 * a last line cut off by the interruption is ignored; anything else malformed is an InputError.
 */
export function readJournal(path: string, run: string): Map<string, { record: CaseRecord; lint: Finding[] | null }> {
  const text = readInputText(path, 'run journal');
  if (text === undefined) throw new InputError(`--resume: no journal at ${path}: nothing to resume (run without --resume)`);
  // The last piece is '' after a final newline, or a line the interruption cut off: either way, not a case.
  const complete = text.split('\n').slice(0, -1);
  const [first, ...rest] = complete;
  const header = HeaderSchema.safeParse(safeJson(first));
  if (!header.success) throw new InputError(`${path}: not a run journal (its first line is not a journal header)`);
  if (header.data.run !== run) throw new InputError(`${path}: the journal is of another run (other cases, flags or clients); run without --resume`);
  const done = new Map<string, { record: CaseRecord; lint: Finding[] | null }>();
  for (const [i, line] of rest.entries()) {
    const parsed = LineSchema.safeParse(safeJson(line));
    if (!parsed.success) throw new InputError(`${path}: line ${i + 2} is not a case record`);
    done.set(parsed.data.record.id, { record: parsed.data.record, lint: parsed.data.lint });
  }
  return done;
}

function safeJson(line: string | undefined): unknown {
  try {
    return line === undefined ? undefined : JSON.parse(line);
  } catch {
    return undefined;
  }
}

// The run journal: each case's record appended as one NDJSON line the moment the case is over, beside
// the result file, so an interrupted run (Ctrl-C, SIGTERM, a kill) loses no finished case and leaves the
// result file as it was (that one is only ever replaced whole). `--resume` reads the journal back; a run
// that completes removes it. The first line says which run it belongs to.
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

/** Starts a journal for run `run` (a fresh one, or one continued after --resume). */
export function openJournal(path: string, run: string, resumed: boolean): Journal {
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
    append(record, lint) {
      if (open) write(`${JSON.stringify({ kind: 'case', record, lint })}\n`);
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

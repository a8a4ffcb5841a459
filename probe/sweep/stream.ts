// A sweep as it goes: each finished release is appended to a journal beside the sweep's output (the
// audit's journal, probe/io/journal.ts: one JSON line per release), so an interrupted sweep loses no
// finished release and `--resume` runs only the rest; and each release is handed on in plan order, as
// soon as it and every release before it are finished (what `--ndjson` prints as the sweep goes).
import { z } from 'zod';
import type { Environment, Matrix } from '../core/domain.ts';
import { releaseKey } from '../core/release.ts';
import { journalPath, openLineJournal, readJournalLines, runFingerprint } from '../io/journal.ts';
import type { LoadableRelease } from '../releases/cache.ts';
import { ReleaseRunSchema, type ReleaseRun, type SweepResult } from './model.ts';
import { runSweep, type SweepRunOptions } from './pool.ts';

const JournalLineSchema = z.object({ kind: z.literal('release'), run: ReleaseRunSchema }).strict();
type JournalLine = z.infer<typeof JournalLineSchema>;

/** Where a sweep's journal is: beside its result JSON. */
export const sweepJournalPath = journalPath;

/**
 * What makes two sweeps the same sweep: the matrix's cases and expectations, what was asked for and what
 * it resolved to (each release with its integrity), the shard, the case limit and the environment. The
 * number of workers and the output formats are not part of it: they do not change the result.
 */
export function sweepFingerprint(sweep: {
  readonly matrix: Matrix;
  readonly request: SweepResult['request'];
  readonly releases: readonly LoadableRelease[];
  readonly shard: SweepResult['shard'];
  readonly timeoutMs: number;
  readonly environment: Environment;
}): string {
  const releases = sweep.releases.map(({ line, label, source, integrity }) => ({ line, label, source, integrity }));
  return runFingerprint({ kind: 'sweep', ...sweep, releases });
}

export interface JournalledSweepOptions extends Omit<SweepRunOptions, 'onRelease'> {
  readonly journalFile: string;
  readonly fingerprint: string;
  /** Continue the journal of an interrupted sweep (it must have this fingerprint) instead of a new one. */
  readonly resume: boolean;
  /** Before anything runs: how many releases the journal already holds. */
  readonly onResumed?: (count: number) => void;
  /** Each release that ran now, as it finishes (completion order), as runSweep's onRelease. */
  readonly onRelease?: (run: ReleaseRun, done: number, total: number, ms: number) => void;
  /** Every release, journalled or run now, in plan order, as soon as it and all before it are in. */
  readonly inOrder?: (run: ReleaseRun) => void;
}

export interface JournalledSweep {
  readonly runs: ReleaseRun[];
  /** The sweep's result file is written: the journal has served and is removed. */
  finish(): void;
}

/** Runs the releases a journal does not already hold, journalling each as it finishes. */
export async function runJournalledSweep(releases: readonly LoadableRelease[], options: JournalledSweepOptions): Promise<JournalledSweep> {
  const { journalFile, fingerprint, resume, onResumed, onRelease, inOrder, ...pool } = options;
  const words = { line: 'a release of a sweep', otherRun: 'another sweep (other ranges, matrix, cases, flags or releases)' };
  const journalled = resume ? readJournalLines(journalFile, fingerprint, JournalLineSchema, words) : [];
  const done = new Map(journalled.map((line) => [releaseKey(line.run.release), line.run]));
  onResumed?.(done.size);
  const journal = openLineJournal<JournalLine>(journalFile, fingerprint, resume);

  const runs: (ReleaseRun | undefined)[] = releases.map((release) => done.get(releaseKey(release)));
  let next = 0;
  const handOn = () => {
    for (; next < runs.length && runs[next]; next++) inOrder?.(runs[next]!);
  };
  handOn();
  const todo = releases.flatMap((release, index) => (runs[index] ? [] : [{ release, index }]));
  await runSweep(
    todo.map((t) => t.release),
    {
      ...pool,
      onRelease: (run, count, total, ms, index) => {
        journal.append({ kind: 'release', run });
        runs[todo[index]!.index] = run;
        onRelease?.(run, count, total, ms);
        handOn();
      },
    },
  );
  return { runs: runs.map((run) => run!), finish: () => journal.finish() };
}

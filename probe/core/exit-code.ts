import type { Comparison } from './compare.ts';
import { differsFromRecorded } from './compare.ts';
import type { ResultFile } from './domain.ts';

export const EXIT = {
  /** Every case passed its expectation and matches the recorded result. */
  ok: 0,
  /** A case failed its expectation, or the run differs from the recorded result. */
  failed: 1,
  /** Usage or input error: unknown flag, unreadable or invalid file. Nothing was run or written. */
  usage: 2,
} as const;

export interface ExitInput {
  readonly result: ResultFile;
  readonly comparison: Comparison;
  /** `--update` just rewrote the recorded result from this run, so differences were accepted. */
  readonly updatedRecorded: boolean;
}

export function exitCodeFor({ result, comparison, updatedRecorded }: ExitInput): 0 | 1 {
  if (result.summary.failed > 0) return EXIT.failed;
  if (!updatedRecorded && differsFromRecorded(comparison)) return EXIT.failed;
  return EXIT.ok;
}

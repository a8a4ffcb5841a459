// The one exit-code rule every command uses (pure). Commands only say what they found: how many cases
// failed their expectation, and how many differences from a recorded baseline nobody accepted.
import type { Comparison } from './compare.ts';
import { differsFromRecorded } from './compare.ts';
import type { ResultFile } from './domain.ts';

export const EXIT = {
  /** Every case passed its expectation and matches what was recorded. */
  ok: 0,
  /** A case failed its expectation, or the run differs from what was recorded. */
  failed: 1,
  /** Usage or input error: unknown flag, unreadable or invalid file. Nothing was run or written. */
  usage: 2,
} as const;

/**
 * What each exit code means, as docs/cli.md states it (`npm run docs` writes the page from this table, so
 * a code added here cannot go undocumented): `satisfies` makes a code without its meaning a type error.
 */
export const EXIT_MEANING = {
  ok: 'every case passed its expectation and the run matches what was recorded (a sweep: no gate failed)',
  failed: 'a case failed its expectation, or the run differs from what was recorded (a sweep: a gate failed)',
  usage: 'usage or input error (unknown command or flag, unreadable or invalid file): nothing was run or written',
} as const satisfies Record<keyof typeof EXIT, string>;

/**
 * Exit codes of every "does it still reproduce" answer (repro.mjs, the evidence's Reproduce block,
 * `explore --replay`), chosen so `git bisect run` needs no wrapper: 1 = the recorded behaviour is present
 * (bisect "bad"), 0 = it is not ("good"), 125 = could not run (a package does not install or import, the
 * server cannot start: bisect "skip"). `--until-fixed` swaps 0 and 1, to bisect where a behaviour went away.
 */
export const REPRO_EXIT = { reproduced: 1, notReproduced: 0, couldNotRun: 125 } as const;

/** What each reproduction exit code means, for docs/cli.md (as EXIT_MEANING). */
export const REPRO_EXIT_MEANING = {
  reproduced: 'the recorded behaviour reproduces (git bisect: bad)',
  notReproduced: 'it does not reproduce (git bisect: good)',
  couldNotRun: 'could not run: a package does not install or import, the server cannot start (git bisect: skip)',
} as const satisfies Record<keyof typeof REPRO_EXIT, string>;

export interface Findings {
  /** Cases whose verdict is `fail`. */
  readonly failedCases: number;
  /** Differences from a recorded baseline that were not accepted (`--update` accepts the ones it records). */
  readonly unacceptedDifferences: number;
}

export function exitCode({ failedCases, unacceptedDifferences }: Findings): 0 | 1 {
  return failedCases > 0 || unacceptedDifferences > 0 ? EXIT.failed : EXIT.ok;
}

export interface ExitInput {
  /** Only its summary counts (a long run keeps no more of its result). */
  readonly result: Pick<ResultFile, 'summary'>;
  /** Absent for a run with nothing recorded to compare with (a replay). */
  readonly comparison: Comparison | undefined;
  /** `--update` just rewrote the recorded result from this run, so differences were accepted. */
  readonly updatedRecorded: boolean;
  /** `--gate-identity`: identity changes (the error's class name or message alone) fail the run too. */
  readonly gateIdentity?: boolean;
}

/** A matrix run (the audit, `--matrix`, a replay): its failed cases, and its differences from the recorded result. */
export function exitCodeFor({ result, comparison, updatedRecorded, gateIdentity = false }: ExitInput): 0 | 1 {
  const differs = comparison !== undefined && !updatedRecorded && differsFromRecorded(comparison, { gateIdentity });
  return exitCode({ failedCases: result.summary.failed, unacceptedDifferences: differs ? 1 : 0 });
}

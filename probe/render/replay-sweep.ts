// A replay swept over releases (`replay FILE --v1 RANGE --expect …`): which releases did not do what
// --expect says. A sweep judges releases only by differences (sweep/gates.ts); a replay's --expect is the
// user's own statement of what a conforming client does, so a case that fails it in some release is
// reported, one line per case and observation, naming the releases.
import type { SweepResult } from '../sweep/model.ts';
import { releaseKey } from '../core/release.ts';
import { terminalLine } from '../core/escape.ts';
import { describeExpected, describeObservation } from './describe.ts';
import { NO_COLOUR, type Paint } from './terminal.ts';

export interface UnmetExpectation {
  readonly caseId: string;
  readonly expected: string;
  readonly observed: string;
  /** The releases (`line@label`, in sweep order) whose case did this. */
  readonly releases: readonly string[];
}

/** Every failed case of every release that ran, grouped by case and observation, in sweep order. */
export function unmetExpectations(result: SweepResult): UnmetExpectation[] {
  const grouped = new Map<string, { caseId: string; expected: string; observed: string; releases: string[] }>();
  for (const run of result.releases) {
    if (run.status !== 'ran') continue;
    for (const record of run.cases) {
      if (record.verdict !== 'fail') continue;
      const expected = describeExpected(record.expected);
      const observed = describeObservation(record.observed);
      const key = JSON.stringify([record.id, expected, observed]);
      const entry = grouped.get(key) ?? { caseId: record.id, expected, observed, releases: [] };
      entry.releases.push(releaseKey(run.release));
      grouped.set(key, entry);
    }
  }
  return [...grouped.values()];
}

/** The lines after the sweep's own report; empty when every case did what --expect says. */
export function renderUnmetExpectations(unmet: readonly UnmetExpectation[], paint: Paint = NO_COLOUR): string {
  if (unmet.length === 0) return '';
  const lines = unmet.map((u) => paint.fail(terminalLine(`✗ ${u.caseId}: expected ${u.expected}, observed ${u.observed} in ${u.releases.join(', ')}`)));
  return `${['', `--expect not met (${unmet.length}):`, ...lines].join('\n')}\n`;
}

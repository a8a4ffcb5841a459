// The search: fast-check generates sequences (generate.ts) and, when one shows a violation of a class not
// found yet, shrinks it with its own shrinking to a minimal sequence that still shows one. Then the search
// goes on for the classes not found yet, until the budget of sequences is spent. What runs a sequence is
// passed in (the real clients, run.ts; or a test double of the traces), so the search is the same for both.
import fc from 'fast-check';
import type { ClientLine } from '../core/domain.ts';
import { DEFAULT_MAX_STEPS, sequenceArbitrary } from './generate.ts';
import { normaliseSequence, type Sequence } from './model.ts';
import { checkTraces, clientsOf, violationClass, type Oracle, type Violation } from './oracles.ts';
import type { LineTrace } from './trace.ts';

export type RunTraces = (sequence: Sequence) => Promise<readonly LineTrace[]>;

export interface ExploreSettings {
  /** Sequences generated before the search stops (shrinking runs come on top). */
  readonly runs: number;
  readonly seed: number;
  readonly maxSteps?: number;
}

export interface Finding {
  /** The violation's class (oracles.ts `violationClass`): what the known-findings file is keyed by. */
  readonly class: string;
  readonly oracle: Oracle;
  readonly clients: readonly ClientLine[];
  readonly violation: Violation;
  /** The minimal sequence, as fast-check shrank it (tool and page numbers normalised). */
  readonly sequence: Sequence;
}

export interface ExploreResult {
  readonly findings: readonly Finding[];
  /** Sequences run, shrinking included. */
  readonly sequencesRun: number;
  /** Sequences generated (the budget spent). */
  readonly generated: number;
}

export async function explore(runTraces: RunTraces, settings: ExploreSettings): Promise<ExploreResult> {
  const found = new Map<string, Finding>();
  const unfound = (traces: readonly LineTrace[]) => checkTraces(traces).filter((v) => !found.has(violationClass(v)));
  const arbitrary = sequenceArbitrary(settings.maxSteps ?? DEFAULT_MAX_STEPS);
  let sequencesRun = 0;
  let generated = 0;
  // Each round is one fast-check run with its own seed (seed + round): the same seed, the same rounds.
  for (let round = 0; generated < settings.runs; round++) {
    // A runner that throws is a harness failure, not a client behaviour: it stops the search as it is.
    let harnessError: { error: unknown } | undefined;
    const property = fc.asyncProperty(arbitrary, async (sequence) => {
      if (harnessError) return true;
      sequencesRun++;
      try {
        return unfound(await runTraces(sequence)).length === 0;
      } catch (error) {
        harnessError = { error };
        return true;
      }
    });
    const details = await fc.check(property, { seed: (settings.seed + round) | 0, numRuns: settings.runs - generated });
    if (harnessError) throw harnessError.error;
    generated += details.numRuns;
    if (!details.failed || !details.counterexample) break;
    const sequence = normaliseSequence(details.counterexample[0]);
    sequencesRun++;
    const violations = unfound(await runTraces(sequence));
    // The shrunk sequence failed the property a moment ago; if it does not now, the clients did not
    // behave the same way twice, which is a harness problem to report, not a finding to keep.
    if (violations.length === 0) throw new Error(`explore: the minimal sequence did not show its violation again (seed ${settings.seed}, round ${round})`);
    for (const violation of violations) {
      const key = violationClass(violation);
      if (found.has(key)) continue;
      // fast-check's array shrinking keeps the tail of an array when it drops items, so steps after the
      // violating one can survive it. They cannot matter (a step's trace depends on the steps before it
      // only), so the finding keeps the prefix up to its step, run again to confirm it still shows.
      const prefix: Sequence = { server: sequence.server, steps: sequence.steps.slice(0, violation.step + 1) };
      sequencesRun++;
      const again = checkTraces(await runTraces(prefix)).find((v) => violationClass(v) === key);
      found.set(key, { class: key, oracle: violation.oracle, clients: clientsOf(violation), violation: again ?? violation, sequence: again ? prefix : sequence });
    }
  }
  const findings = [...found.values()].sort((a, b) => (a.class < b.class ? -1 : a.class > b.class ? 1 : 0));
  return { findings, sequencesRun, generated };
}

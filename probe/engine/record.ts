// From an observation to a case record, and from records to a result's summary and rule findings. Pure
// but for the lint's validator; no SDK: the case pool's main thread records what its threads observed.
import type { CaseRecord, Finding, Observation, ResultFile, Scenario } from '../core/domain.ts';
import { fixtureOf, givenResult, transportOf } from '../core/fixture.ts';
import { judge } from '../core/judge.ts';
import { lintResult } from '../core/lint.ts';

/** A case's record: the scenario's facts, the observation, and the judge's verdict on it. */
export function recordCase(scenario: Scenario, clientPackage: string, observed: Observation): CaseRecord {
  const { verdict, mismatches } = judge(scenario.expected, observed);
  return {
    id: scenario.id,
    client: scenario.client,
    clientPackage,
    discovery: scenario.discovery,
    transport: transportOf(scenario),
    fixture: fixtureOf(scenario.server),
    shape: scenario.shape,
    ...(scenario.family !== undefined && { family: scenario.family }),
    ...(scenario.question !== undefined && { question: scenario.question }),
    ...(scenario.reference !== undefined && { reference: scenario.reference }),
    verdict,
    mismatches,
    expected: scenario.expected,
    observed,
    ...(scenario.arguments !== undefined && { arguments: scenario.arguments }),
    ...(scenario.calledName !== undefined && { calledName: scenario.calledName }),
    ...(scenario.clientTimeoutMs !== undefined && { clientTimeoutMs: scenario.clientTimeoutMs }),
    result: givenResult(scenario.server),
    tool: scenario.tool,
  };
}

export function summarize(cases: readonly CaseRecord[]): ResultFile['summary'] {
  const passed = cases.filter((c) => c.verdict === 'pass').length;
  const failed = cases.filter((c) => c.verdict === 'fail').length;
  const unjudged = cases.length - passed - failed;
  return unjudged > 0 ? { passed, failed, unjudged } : { passed, failed };
}

/** The rule findings of each result shape, keyed by shape, in the order shapes first appear. */
export function lintShapes(scenarios: readonly Scenario[]): Record<string, Finding[]> {
  const lint: Record<string, Finding[]> = {};
  for (const scenario of scenarios) {
    const result = givenResult(scenario.server);
    if (result && !(scenario.shape in lint)) lint[scenario.shape] = lintResult(scenario.tool, result);
  }
  return lint;
}


/**
 * The findings per shape from per-case findings (the pool's), for cases that finish in any order, keeping per shape only the case that decides it (not
 * a finding per case: a long run's memory does not grow with its cases). Same result as shapeFindings
 * over the scenarios in order would give: the first scenario of each shape whose checks finished, or the
first whose did not (test/record-lint.test.ts).
 */
export function shapeFindingsCollector(): {
  add(index: number, shape: string, found: Finding[] | null): void;
  result(): Record<string, Finding[]>;
} {
  const unfinished = (found: Finding[]) => found[0]?.rule === 'checks-not-finished';
  const shapes = new Map<string, { first: number; chosen: number; found: Finding[] }>();
  return {
    add(index, shape, found) {
      if (!found) return;
      const known = shapes.get(shape);
      if (!known) return void shapes.set(shape, { first: index, chosen: index, found });
      known.first = Math.min(known.first, index);
      // A finished case beats an unfinished one; between two alike, the earlier scenario.
      const better = unfinished(known.found) !== unfinished(found) ? unfinished(known.found) : index < known.chosen;
      if (better) {
        known.chosen = index;
        known.found = found;
      }
    },
    result() {
      // Shapes in the order their first case with findings comes in the matrix, as shapeFindings has them.
      return Object.fromEntries([...shapes].sort(([, a], [, b]) => a.first - b.first).map(([shape, { found }]) => [shape, found]));
    },
  };
}


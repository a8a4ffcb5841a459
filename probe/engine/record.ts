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


/** The findings per shape from per-scenario findings (the pool's), keeping the first scenario of each shape. */
export function shapeFindings(scenarios: readonly Scenario[], findings: readonly (Finding[] | null)[]): Record<string, Finding[]> {
  const lint: Record<string, Finding[]> = {};
  for (const [i, scenario] of scenarios.entries()) {
    const found = findings[i];
    // A case whose thread was stopped before its checks finished gives way to one of the same shape that finished.
    const unfinished = lint[scenario.shape]?.[0]?.rule === 'checks-not-finished';
    if (found && (!(scenario.shape in lint) || (unfinished && found[0]?.rule !== 'checks-not-finished'))) lint[scenario.shape] = found;
  }
  return lint;
}

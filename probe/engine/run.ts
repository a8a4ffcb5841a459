// Runs cases: every case gets its own fresh fixture server and client, one after another, and the
// judgement of each observation is attached. `runCases` is the one case runner (the audit, --matrix,
// replay and the sweep's workers all use it); `runMatrix` adds a matrix's header, summary and rule
// findings; `combineForDisplay` joins the results of matrices that ran on their own into one report.
import { adapters, type ClientUnderTest } from '../clients/index.ts';
import type { CaseRecord, ClientLine, Environment, Finding, Matrix, ResultFile, Scenario } from '../core/domain.ts';
import { RESULT_SCHEMA_VERSION } from '../core/domain.ts';
import { fixtureOf, givenResult, transportOf } from '../core/fixture.ts';
import { judge } from '../core/judge.ts';
import { clientPackageOf } from '../core/release.ts';
import { lintResult } from '../core/lint.ts';
import { captureEnvironment } from '../io/environment.ts';
import { observe } from './observe.ts';

export const DEFAULT_TIMEOUT_MS = 5000;

export interface RunCasesOptions {
  readonly timeoutMs?: number;
  readonly environment: Environment;
  /** The client each line's cases run against, when not the project's pinned one. */
  readonly clients?: Partial<Record<ClientLine, ClientUnderTest>>;
}

export interface RunMatrixOptions extends Partial<RunCasesOptions> {}

function pinnedClient(line: ClientLine, environment: Environment): ClientUnderTest {
  const adapter = adapters[line];
  return { adapter, clientPackage: clientPackageOf(adapter.packageName, environment.packages[adapter.packageName] ?? 'unknown') };
}

/** Observes and judges each scenario, in order. */
export async function runCases(scenarios: readonly Scenario[], options: RunCasesOptions): Promise<CaseRecord[]> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const cases: CaseRecord[] = [];
  for (const scenario of scenarios) {
    const client = options.clients?.[scenario.client] ?? pinnedClient(scenario.client, options.environment);
    const observed = await observe(scenario, client.adapter, { timeoutMs });
    const { verdict, mismatches } = judge(scenario.expected, observed);
    cases.push({
      id: scenario.id,
      client: scenario.client,
      clientPackage: client.clientPackage,
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
    });
  }
  return cases;
}

function summarize(cases: readonly CaseRecord[]): ResultFile['summary'] {
  const passed = cases.filter((c) => c.verdict === 'pass').length;
  const failed = cases.filter((c) => c.verdict === 'fail').length;
  const unjudged = cases.length - passed - failed;
  return unjudged > 0 ? { passed, failed, unjudged } : { passed, failed };
}

/** The rule findings of each result shape, keyed by shape, in the order shapes first appear. */
function lintShapes(scenarios: readonly Scenario[]): Record<string, Finding[]> {
  const lint: Record<string, Finding[]> = {};
  for (const scenario of scenarios) {
    const result = givenResult(scenario.server);
    if (result && !(scenario.shape in lint)) lint[scenario.shape] = lintResult(scenario.tool, result);
  }
  return lint;
}

/** Runs the selected scenarios of one matrix into that matrix's result file. */
export async function runMatrix(matrix: Matrix, scenarios: readonly Scenario[], options: RunMatrixOptions = {}): Promise<ResultFile> {
  const environment = options.environment ?? captureEnvironment();
  const cases = await runCases(scenarios, { ...options, environment });
  return {
    schemaVersion: RESULT_SCHEMA_VERSION,
    matrix: { name: matrix.name, title: matrix.title, source: matrix.source },
    environment,
    cases,
    summary: summarize(cases),
    lint: lintShapes(scenarios),
  };
}

/**
 * One report of several results that ran on their own (each built-in matrix, user scenarios), in the
 * order given. A shape's rule findings are the first result's that has it. Nothing is re-run or re-judged.
 */
export function combineForDisplay(header: ResultFile['matrix'], parts: readonly ResultFile[]): ResultFile {
  const [first] = parts;
  if (!first) throw new Error('combineForDisplay: nothing to combine');
  const cases = parts.flatMap((part) => part.cases);
  const lint: Record<string, Finding[]> = {};
  for (const part of parts) for (const [shape, findings] of Object.entries(part.lint ?? {})) if (!(shape in lint)) lint[shape] = findings;
  return { ...first, matrix: header, cases, summary: summarize(cases), lint };
}

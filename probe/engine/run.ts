// Runs a matrix: every case gets its own fresh fixture server and client, one after another, and the
// judgement of each observation is attached. The result is plain data for the renderers and the diff.
import { adapters, type ClientUnderTest } from '../clients/index.ts';
import type { CaseRecord, ClientLine, Environment, Finding, Matrix, ResultFile, Scenario, ToolResult } from '../core/domain.ts';
import { lintResult } from '../core/lint.ts';
import { RESULT_SCHEMA_VERSION } from '../core/domain.ts';
import { captureEnvironment } from '../io/environment.ts';
import { judge } from '../core/judge.ts';
import { observe } from './observe.ts';

export const DEFAULT_TIMEOUT_MS = 5000;

export interface RunMatrixOptions {
  readonly timeoutMs?: number;
  readonly environment?: Environment;
  readonly clients?: Partial<Record<ClientLine, ClientUnderTest>>;
}

/** The result the server is told to send (its handler's return value); null when it sends none. */
export function sentResult(scenario: Scenario): ToolResult | null {
  const { server } = scenario;
  if (server.kind === 'respond' || server.kind === 'wrong-id') return server.result;
  if (server.kind === 'helper' && server.result !== 'throw') return server.result;
  return null;
}

export async function runMatrix(matrix: Matrix, scenarios: readonly Scenario[], options: RunMatrixOptions = {}): Promise<ResultFile> {
  const environment = options.environment ?? captureEnvironment();
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const cases: CaseRecord[] = [];
  for (const scenario of scenarios) {
    const pinned = adapters[scenario.client];
    const client = options.clients?.[scenario.client] ?? {
      adapter: pinned,
      clientPackage: `${pinned.packageName}@${environment.packages[pinned.packageName] ?? 'unknown'}`,
    };
    const observed = await observe(scenario, client.adapter, { timeoutMs });
    const { verdict, mismatches } = judge(scenario.expected, observed);
    cases.push({
      id: scenario.id,
      client: scenario.client,
      clientPackage: client.clientPackage,
      discovery: scenario.discovery,
      shape: scenario.shape,
      tool: scenario.tool,
      result: sentResult(scenario),
      expected: scenario.expected,
      observed,
      verdict,
      mismatches,
      ...(scenario.arguments && { arguments: scenario.arguments }),
      ...(scenario.transport && { transport: scenario.transport }),
      ...(scenario.family && { family: scenario.family }),
      ...(scenario.question && { question: scenario.question }),
      ...(scenario.reference && { reference: scenario.reference }),
    });
  }
  const passed = cases.filter((c) => c.verdict === 'pass').length;
  const failed = cases.filter((c) => c.verdict === 'fail').length;
  const unjudged = cases.length - passed - failed;
  const lint: Record<string, Finding[]> = {};
  for (const scenario of scenarios) {
    const result = sentResult(scenario);
    if (result && !(scenario.shape in lint)) lint[scenario.shape] = lintResult(scenario.tool, result);
  }
  return {
    schemaVersion: RESULT_SCHEMA_VERSION,
    matrix: { name: matrix.name, title: matrix.title, source: matrix.source },
    environment,
    cases,
    summary: unjudged > 0 ? { passed, failed, unjudged } : { passed, failed },
    lint,
  };
}

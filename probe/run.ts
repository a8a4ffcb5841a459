// Runs a matrix: every case gets its own fresh fixture server and client, one after another, and the
// judgement of each observation is attached. The result is plain data for the renderers and the diff.
import picomatch from 'picomatch';
import { adapters } from './adapters/index.ts';
import type { CaseRecord, Environment, Matrix, ResultFile, Scenario } from './domain.ts';
import { RESULT_SCHEMA_VERSION } from './domain.ts';
import { captureEnvironment } from './environment.ts';
import { judge } from './judge.ts';
import { observe } from './observe.ts';

export const DEFAULT_TIMEOUT_MS = 5000;

export interface RunMatrixOptions {
  readonly timeoutMs?: number;
  readonly environment?: Environment;
}

/**
 * `--case` patterns: a glob over case ids (`v1/*`, `*\/cold/*`), or a plain word that any id containing
 * it matches (`off-schema`). A case runs when any pattern matches it.
 */
export function selectScenarios(scenarios: readonly Scenario[], patterns: readonly string[]): Scenario[] {
  if (patterns.length === 0) return [...scenarios];
  const matchers = patterns.map((pattern) =>
    picomatch.scan(pattern).isGlob ? picomatch(pattern) : (id: string) => id.includes(pattern),
  );
  return scenarios.filter((scenario) => matchers.some((matches) => matches(scenario.id)));
}

export async function runMatrix(matrix: Matrix, scenarios: readonly Scenario[], options: RunMatrixOptions = {}): Promise<ResultFile> {
  const environment = options.environment ?? captureEnvironment();
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const cases: CaseRecord[] = [];
  for (const scenario of scenarios) {
    const adapter = adapters[scenario.client];
    const observed = await observe(scenario, adapter, { timeoutMs });
    const { verdict, mismatches } = judge(scenario.expected, observed);
    const clientVersion = environment.packages[adapter.packageName] ?? 'unknown';
    cases.push({
      id: scenario.id,
      client: scenario.client,
      clientPackage: `${adapter.packageName}@${clientVersion}`,
      discovery: scenario.discovery,
      shape: scenario.shape,
      tool: scenario.tool,
      result: scenario.server.kind === 'respond' ? scenario.server.result : null,
      expected: scenario.expected,
      observed,
      verdict,
      mismatches,
    });
  }
  const passed = cases.filter((c) => c.verdict === 'pass').length;
  return {
    schemaVersion: RESULT_SCHEMA_VERSION,
    matrix: { name: matrix.name, title: matrix.title, source: matrix.source },
    environment,
    cases,
    summary: { passed, failed: cases.length - passed },
  };
}

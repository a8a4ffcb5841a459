// Runs cases: every case gets its own fresh fixture server and client, one after another, and the
// judgement of each observation is attached. `runCases` is the one case runner (the audit, --matrix,
// replay and the sweep's workers all use it); `runMatrix` adds a matrix's header, summary and rule
// findings; `combineForDisplay` joins the results of matrices that ran on their own into one report.
import { adapters, type ClientUnderTest } from '../clients/index.ts';
import type { CaseRecord, ClientLine, Environment, Finding, Matrix, ResultFile, Scenario } from '../core/domain.ts';
import { RESULT_SCHEMA_VERSION } from '../core/domain.ts';
import { clientPackageOf } from '../core/release.ts';
import { LINE_PINS } from '../clients/packages.ts';
import { captureEnvironment, installedIntegrity, readInstalledPackage } from '../io/environment.ts';
import { observe } from './observe.ts';
import { lintShapes, recordCase, shapeFindings, summarize } from './record.ts';
import { runCasesInPool, type PoolOptions } from './pool.ts';

export const DEFAULT_TIMEOUT_MS = 5000;

export interface RunCasesOptions {
  readonly timeoutMs?: number;
  readonly environment: Environment;
  /** The client each line's cases run against, when not the project's pinned one. */
  readonly clients?: Partial<Record<ClientLine, ClientUnderTest>>;
}

/** A case that is over: its record and the rule findings of its result (null: it was given none). */
export interface CaseDone {
  readonly record: CaseRecord;
  readonly lint: Finding[] | null;
}

export interface RunMatrixOptions extends Partial<RunCasesOptions> {
  /** Run the cases in the case pool (pool.ts) instead of in this thread. */
  readonly pool?: Omit<PoolOptions, 'timeoutMs' | 'environment' | 'onCaseDone'> & {
    /** Cases an interrupted run already finished (--resume), by id: not run again. */
    readonly resumed?: ReadonlyMap<string, CaseDone>;
    /** Each case as it finishes (a journal). */
    readonly onCaseDone?: (done: CaseDone) => void;
  };
}

export function pinnedClient(line: ClientLine, environment: Environment): ClientUnderTest {
  const adapter = adapters[line];
  return { adapter, clientPackage: clientPackageOf(adapter.packageName, environment.packages[adapter.packageName] ?? 'unknown') };
}

/**
 * The environment of a run of these cases: the base (the SDK packages every result names) plus the
 * packages of each ecosystem line the cases use, so a result names exactly the versions that decided it
 * and the audit's and extended matrix's environment blocks stay as they are.
 */
export function environmentFor(scenarios: readonly Scenario[], base: Environment): Environment {
  const lines = [...new Set(scenarios.map((s) => s.client))].filter((line): line is keyof typeof LINE_PINS => Object.hasOwn(LINE_PINS, line));
  if (lines.length === 0) return base;
  const found = lines.flatMap((line) => {
    const pins = Object.entries(LINE_PINS[line]);
    try {
      return pins.map(([name]) => readInstalledPackage(name));
    } catch {
      const wanted = pins.map(([name, version]) => `${name}@${version}`).join(' ');
      throw new Error(`the ${line} client line needs ${wanted}: npm install --save-dev ${wanted}`);
    }
  });
  const sorted = (record: Record<string, string>) => Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
  return {
    ...base,
    packages: sorted({ ...base.packages, ...Object.fromEntries(found.map((p) => [p.name, p.version])) }),
    integrity: sorted({ ...base.integrity, ...installedIntegrity(found) }),
  };
}

/** Observes and judges each scenario, in order, in this thread (the pool's workers run cases this way). */
export async function runCases(scenarios: readonly Scenario[], options: RunCasesOptions): Promise<CaseRecord[]> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  // Each line's package loads before the first case's clock starts (see ClientAdapter.preload).
  for (const line of new Set(scenarios.map((s) => s.client))) {
    if (Object.hasOwn(LINE_PINS, line)) await (options.clients?.[line] ?? pinnedClient(line, options.environment)).adapter.preload?.();
  }
  const cases: CaseRecord[] = [];
  for (const scenario of scenarios) {
    const client = options.clients?.[scenario.client] ?? pinnedClient(scenario.client, options.environment);
    cases.push(recordCase(scenario, client.clientPackage, await observe(scenario, client.adapter, { timeoutMs })));
  }
  return cases;
}

/** Runs the selected scenarios of one matrix into that matrix's result file. */
export async function runMatrix(matrix: Matrix, scenarios: readonly Scenario[], options: RunMatrixOptions = {}): Promise<ResultFile> {
  // The given environment (or this machine's), plus the packages of the ecosystem lines the matrix uses.
  const environment = environmentFor(matrix.scenarios, options.environment ?? captureEnvironment());
  let cases: CaseRecord[];
  let lint: Record<string, Finding[]>;
  if (options.pool) {
    const { resumed, onCaseDone, ...pool } = options.pool;
    const todo = scenarios.filter((scenario) => !resumed?.has(scenario.id));
    const run = await runCasesInPool(todo, {
      ...pool,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      environment,
      ...(onCaseDone && { onCaseDone: (_index: number, record: CaseRecord, found: Finding[] | null) => onCaseDone({ record, lint: found }) }),
    });
    const ran = new Map(todo.map((scenario, i) => [scenario.id, { record: run.records[i]!, lint: run.lints[i] ?? null }]));
    const all = scenarios.map((scenario) => resumed?.get(scenario.id) ?? ran.get(scenario.id)!);
    cases = all.map((done) => done.record);
    lint = shapeFindings(scenarios, all.map((done) => done.lint));
  } else {
    cases = await runCases(scenarios, { ...options, environment });
    lint = lintShapes(scenarios);
  }
  return {
    schemaVersion: RESULT_SCHEMA_VERSION,
    matrix: { name: matrix.name, title: matrix.title, source: matrix.source },
    environment,
    cases,
    summary: summarize(cases),
    lint,
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

// Runs cases: every case gets its own fresh fixture server and client, one after another, and the
// judgement of each observation is attached. `runCases` is the one case runner (the audit, --matrix,
// replay and the sweep's workers all use it); `runMatrix` adds a matrix's header, summary and rule
// findings; `streamMatrix` is runMatrix for a run that keeps no records; `combineHeaders` joins the
// headers of matrices that ran on their own into one report's.
import { adapters, type ClientUnderTest } from '../clients/index.ts';
import type { CaseRecord, ClientLine, Environment, Finding, Matrix, ResultFile, ResultHeader, Scenario } from '../core/domain.ts';
import { CLIENT_LINES, RESULT_SCHEMA_VERSION } from '../core/domain.ts';
import { InputError } from '../core/errors.ts';
import type { ServerSource } from '../core/fixture.ts';
import { clientPackageOf } from '../core/release.ts';
import { LINE_PINS } from '../clients/packages.ts';
import { captureEnvironment, installedIntegrity, readInstalledPackage } from '../io/environment.ts';
import { observe } from './observe.ts';
import { lintShapes, recordCase, shapeFindingsCollector, summarize } from './record.ts';
import { runCasesInPool, type PoolOptions } from './pool.ts';

export const DEFAULT_TIMEOUT_MS = 5000;

export interface RunCasesOptions {
  readonly timeoutMs?: number;
  readonly environment: Environment;
  /** The client each line's cases run against, when not the project's pinned one. */
  readonly clients?: Partial<Record<ClientLine, ClientUnderTest>>;
  /** The server package each line's fixtures come from, when not the pinned one (a server sweep). */
  readonly servers?: Partial<Record<ClientLine, ServerSource>>;
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
      // Not a fault of the run: this install lacks the line's optional packages (exit 2, one line).
      throw new InputError(`the ${line} client line needs ${wanted}: npm install --save-dev ${wanted}`);
    }
  });
  const sorted = (record: Record<string, string>) => Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
  return {
    ...base,
    packages: sorted({ ...base.packages, ...Object.fromEntries(found.map((p) => [p.name, p.version])) }),
    integrity: sorted({ ...base.integrity, ...installedIntegrity(found) }),
  };
}

/**
 * The client lines this install can run: the SDK lines (the probe's own dependencies) and each ecosystem
 * line whose pinned packages are installed (they are optional peers of an installed probe). `left` names
 * the others, with what to install, so a default "every line" says what it left out instead of failing.
 */
export function installedClientLines(): { lines: ClientLine[]; left: { line: ClientLine; install: string }[] } {
  const lines: ClientLine[] = [];
  const left: { line: ClientLine; install: string }[] = [];
  for (const line of CLIENT_LINES) {
    const pins: Record<string, string> = Object.hasOwn(LINE_PINS, line) ? LINE_PINS[line as keyof typeof LINE_PINS] : {};
    const missing = Object.keys(pins).filter((name) => {
      try {
        readInstalledPackage(name);
        return false;
      } catch {
        return true;
      }
    });
    if (missing.length === 0) lines.push(line);
    else left.push({ line, install: Object.entries(pins).map(([name, version]) => `${name}@${version}`).join(' ') });
  }
  return { lines, left };
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
    cases.push(recordCase(scenario, client.clientPackage, await observe(scenario, client.adapter, { timeoutMs, ...(options.servers && { servers: options.servers }) })));
  }
  return cases;
}

/** Runs the selected scenarios of one matrix into that matrix's result file. */
export async function runMatrix(matrix: Matrix, scenarios: readonly Scenario[], options: RunMatrixOptions = {}): Promise<ResultFile> {
  // The given environment (or this machine's), plus the packages of the ecosystem lines the matrix uses.
  const environment = environmentFor(matrix.scenarios, options.environment ?? captureEnvironment());
  if (!options.pool) {
    const cases = await runCases(scenarios, { ...options, environment });
    return { ...resultHeader(matrix, environment, summarize(cases), lintShapes(scenarios)), cases };
  }
  const { onCaseDone, ...pool } = options.pool;
  const cases: CaseRecord[] = new Array(scenarios.length);
  const header = await streamMatrix(matrix, scenarios, {
    ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
    environment,
    pool,
    onCase: (index, done, resumed) => {
      cases[index] = done.record;
      if (!resumed) onCaseDone?.(done);
    },
  });
  return { ...header, cases };
}

export interface StreamMatrixOptions {
  readonly timeoutMs?: number;
  readonly environment: Environment;
  readonly pool: Omit<NonNullable<RunMatrixOptions['pool']>, 'onCaseDone'>;
}

/** One matrix of a streamed run: its selected scenarios, and where each case goes once it is over. */
export interface StreamedPart {
  readonly matrix: Matrix;
  readonly scenarios: readonly Scenario[];
  /**
   * Each case once it is over, with its index among `scenarios`: first the resumed ones (`resumed`
   * true, in scenario order), then the others in the order they finish. Its record is not kept here.
   */
  readonly onCase: (index: number, done: CaseDone, resumed: boolean) => void;
}

/**
 * runMatrix in the pool for a run that does not keep its records: each goes to `onCase` (a journal, the
 * report's line, the comparison's entry) and is dropped; what comes back is the result's header, whose
 * summary and rule findings are made from what each case left behind. Same header as runMatrix's.
 */
export async function streamMatrix(matrix: Matrix, scenarios: readonly Scenario[], options: StreamMatrixOptions & Pick<StreamedPart, 'onCase'>): Promise<ResultHeader> {
  const [header] = await streamMatrices([{ matrix, scenarios, onCase: options.onCase }], options);
  return header!;
}

/**
 * Several matrices streamed in one pool run (`--matrix all`, user scenarios beside them): their cases
 * share the threads, so one matrix's waiting cases overlap another's work and no thread idles at a
 * matrix's end (issue 10). Each part keeps its own header (its environment names the packages its own
 * cases used), the same as if it had run alone; the threads load every part's client lines once.
 */
export async function streamMatrices(parts: readonly StreamedPart[], options: StreamMatrixOptions): Promise<ResultHeader[]> {
  const { resumed, ...pool } = options.pool;
  const states = parts.map((part) => ({
    // Plus the packages of the ecosystem lines the matrix uses (unchanged when runMatrix already added them).
    environment: environmentFor(part.matrix.scenarios, options.environment),
    counts: { pass: 0, fail: 0, unjudged: 0 },
    lint: shapeFindingsCollector(),
  }));
  const done = (partIndex: number, index: number, finished: CaseDone, wasResumed: boolean) => {
    const state = states[partIndex]!;
    state.counts[finished.record.verdict] += 1;
    state.lint.add(index, parts[partIndex]!.scenarios[index]!.shape, finished.lint);
    parts[partIndex]!.onCase(index, finished, wasResumed);
  };
  const todo: { part: number; index: number }[] = [];
  for (const [partIndex, part] of parts.entries()) {
    for (const [index, scenario] of part.scenarios.entries()) {
      const earlier = resumed?.get(scenario.id);
      if (earlier) done(partIndex, index, earlier, true);
      else todo.push({ part: partIndex, index });
    }
  }
  await runCasesInPool(
    todo.map(({ part, index }) => parts[part]!.scenarios[index]!),
    {
      ...pool,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      // The threads' clients: every line any part's cases use (user scenarios' too).
      environment: environmentFor(
        parts.flatMap((part) => [...part.matrix.scenarios, ...part.scenarios]),
        options.environment,
      ),
      retain: false,
      onCaseDone: (i, record, lint) => done(todo[i]!.part, todo[i]!.index, { record, lint }, false),
    },
  );
  return parts.map((part, partIndex) => {
    const { environment, counts, lint } = states[partIndex]!;
    const summary = counts.unjudged > 0 ? { passed: counts.pass, failed: counts.fail, unjudged: counts.unjudged } : { passed: counts.pass, failed: counts.fail };
    return resultHeader(part.matrix, environment, summary, lint.result());
  });
}

function resultHeader(matrix: Matrix, environment: Environment, summary: ResultFile['summary'], lint: Record<string, Finding[]>): ResultHeader {
  return { schemaVersion: RESULT_SCHEMA_VERSION, matrix: { name: matrix.name, title: matrix.title, source: matrix.source }, environment, summary, lint };
}

/**
 * The header of one report of several results that ran on their own (each built-in matrix, user
 * scenarios), in the order given; their cases follow one another in that order. A shape's rule findings
 * are the first result's that has it. Nothing is re-run or re-judged.
 */
export function combineHeaders(header: ResultFile['matrix'], parts: readonly ResultHeader[]): ResultHeader {
  const [first] = parts;
  if (!first) throw new Error('combineHeaders: nothing to combine');
  const passed = parts.reduce((sum, part) => sum + part.summary.passed, 0);
  const failed = parts.reduce((sum, part) => sum + part.summary.failed, 0);
  const unjudged = parts.reduce((sum, part) => sum + (part.summary.unjudged ?? 0), 0);
  const lint: Record<string, Finding[]> = {};
  for (const part of parts) for (const [shape, findings] of Object.entries(part.lint ?? {})) if (!(shape in lint)) lint[shape] = findings;
  return { ...first, matrix: header, summary: unjudged > 0 ? { passed, failed, unjudged } : { passed, failed }, lint };
}

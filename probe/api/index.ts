// The library API (`import { runAudit } from 'mcp-sdk-probe'`): the CLI's building blocks without the
// CLI's files, flags or exit codes. Nothing here writes a file; the caller decides what to keep.
// Every function that runs cases returns a promise and reports bad input by rejecting it (InputError).
// Bundled to dist/index.mjs (bin/build.mjs); its types are emitted by `tsc -p tsconfig.build.json`.
import { join } from 'node:path';
import { ToolDefinitionSchema, ToolResultSchema, toolDefinitionAsGiven, toolResultAsGiven, type Capture, type ClientLine, type JsonValue, type Matrix, type ResultFile, type ToolDefinition, type ToolResult } from '../core/domain.ts';
import { compareWithRecorded, type Comparison } from '../core/compare.ts';
import { parseExpectRule } from '../core/expect-spec.ts';
import { checkCasePatternsMatch, parseClientLines, selectScenarios } from '../core/select.ts';
import { MAX_TIMER_MS } from '../core/timer.ts';
import { InputError } from '../core/errors.ts';
import { installedClientLines, runMatrix as runMatrixIn } from '../engine/run.ts';
import { CallArgumentsSchema, captureFileText, slug } from '../io/capture.ts';
import { MAX_JSON_DEPTH, MAX_WRITTEN_JSON_DEPTH, writeFileAtomic } from '../io/files.ts';
import type { CapturedToolCall } from './capture-tool.ts';
import { parseJsonFileAsGiven, readRecordedResult } from '../io/json-files.ts';
import { SweepResultSchema, type SweepResult } from '../sweep/model.ts';
import { PROJECT_ROOT } from '../io/project.ts';
import { auditMatrix } from '../../scenarios/audit.ts';
import { ecosystemMatrix } from '../../scenarios/ecosystem.ts';
import { extendedMatrix } from '../../scenarios/extended/index.ts';
import { replayMatrix } from '../../scenarios/replay.ts';

export { judge, type Judgement } from '../core/judge.ts';
export { compareWithRecorded, differsFromRecorded, type CaseComparison, type ChangeKind, type CompareOptions, type Comparison, type GateOptions } from '../core/compare.ts';
export { exitCodeFor } from '../core/exit-code.ts';
export { renderTerminalReport, NO_COLOUR, type Paint, type TerminalReportInput } from '../render/terminal.ts';
export { renderMarkdown, renderSummaryMarkdown, type EvidenceContext } from '../render/markdown.ts';
export { renderJunit } from '../render/junit.ts';
export { renderSweepHtml } from '../render/sweep-html.ts';
export type { SweepResult } from '../sweep/model.ts';
export { serializeResult, parseResultText } from '../io/json-files.ts';
// The escaping functions, one per medium, for whoever renders a result's data in a document of their own
// (the GitHub Action's job summary: action/run.mjs).
export { markdownCode, markdownFence, markdownText, terminalLine } from '../core/escape.ts';
export { captureTool, type CaptureOptions, type CapturedToolCall, type ServerInstance, type ServerSource, type StdioServerCommand } from './capture-tool.ts';
export type {
  CaseRecord,
  ClientLine,
  Discovery,
  Environment,
  ErrorInfo,
  Expected,
  Finding,
  Mismatch,
  Observation,
  ResultFile,
  ToolDefinition,
  ToolResult,
  Verdict,
} from '../core/domain.ts';

/** The built-in matrices: the audit's 13 cases, and the cases the audit left out. */
export type MatrixName = 'audit' | 'extended' | 'ecosystem';

export interface RunOptions {
  /** Per-case time limit in milliseconds (default 5000). */
  readonly timeoutMs?: number;
  /**
   * Where cases run. 'pool' (the default, as the CLI): worker threads, so a case whose client blocks its
   * thread is still cut off at its deadline. 'in-process': one after another in the calling thread.
   */
  readonly runIn?: 'pool' | 'in-process';
  /** Case threads at once in the pool (default: one per 32 cases, up to one per core). */
  readonly jobs?: number;
  /** Only the cases matching these patterns (globs over case ids, or words they contain), as `--case`. */
  readonly cases?: readonly string[];
}

const MATRICES: Record<MatrixName, Matrix> = { audit: auditMatrix, extended: extendedMatrix, ecosystem: ecosystemMatrix };
const RECORDED: Record<MatrixName, string> = { audit: 'recorded.json', extended: 'recorded-extended.json', ecosystem: 'recorded-ecosystem.json' };

async function run(matrix: Matrix, options: RunOptions): Promise<ResultFile> {
  // As the CLI checks its flags: a limit Node's timers cannot keep, or a pattern that selects nothing.
  if (options.timeoutMs !== undefined && !(Number.isSafeInteger(options.timeoutMs) && options.timeoutMs > 0 && options.timeoutMs <= MAX_TIMER_MS)) {
    throw new InputError(`timeoutMs: a whole number of milliseconds from 1 to ${MAX_TIMER_MS}, got ${options.timeoutMs}`);
  }
  if (options.jobs !== undefined && !(Number.isSafeInteger(options.jobs) && options.jobs > 0)) throw new InputError(`jobs: a whole number above 0, got ${options.jobs}`);
  checkCasePatternsMatch(options.cases ?? [], matrix.scenarios.map((s) => s.id), matrix.name, 'cases:');
  const scenarios = selectScenarios(matrix.scenarios, options.cases ?? []);
  return runMatrixIn(matrix, scenarios, {
    ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
    ...(options.runIn !== 'in-process' && { pool: { ...(options.jobs !== undefined && { jobs: options.jobs }) } }),
  });
}

/** Runs a built-in matrix against the pinned clients; the result is what `--matrix <name>` writes. */
export async function runMatrix(name: MatrixName, options: RunOptions = {}): Promise<ResultFile> {
  const matrix = MATRICES[name];
  if (!matrix) throw new InputError(`matrix ${String(name)}: expected one of ${Object.keys(MATRICES).join(', ')}`);
  return run(matrix, options);
}

/** The audit's 13 cases (`npx mcp-sdk-probe`). */
export function runAudit(options: RunOptions = {}): Promise<ResultFile> {
  return runMatrix('audit', options);
}

export interface ReplayInput {
  readonly tool: ToolDefinition;
  readonly result: ToolResult;
  /** Names the result in case ids and reports (default 'captured-result'). */
  readonly name?: string;
  /** The tools/call arguments to call the tool with, as the captured call did (default `{}`). */
  readonly arguments?: Readonly<Record<string, unknown>>;
}

export interface ReplayOptions extends RunOptions {
  /** Expectations as `--expect` takes them: `returned`, `rejected:-32602`, or `v1/*=rejected`. */
  readonly expect?: readonly string[];
  /** The client lines to replay through, as `--clients` (default: every line whose packages are installed). */
  readonly clients?: readonly ClientLine[];
}

/** How every client line and discovery mode treats one tool result (`replay`). */
export async function replay(input: ReplayInput, options: ReplayOptions = {}): Promise<ResultFile> {
  const name = input.name ?? 'captured-result';
  const tool = ToolDefinitionSchema.safeParse(input.tool);
  if (!tool.success) throw new InputError(`replay: tool: ${tool.error.issues[0]?.path.join('.') || '(top level)'}: ${tool.error.issues[0]?.message}`);
  const result = ToolResultSchema.safeParse(input.result);
  if (!result.success) throw new InputError(`replay: result: ${result.error.issues[0]?.path.join('.') || '(top level)'}: ${result.error.issues[0]?.message}`);
  // The caller's values, not zod's output: its parse leaves own `__proto__` keys out (core/domain.ts asGiven).
  if (input.arguments !== undefined && !CallArgumentsSchema.safeParse(input.arguments).success) {
    throw new InputError('replay: arguments: expected an object of JSON values (the tools/call arguments)');
  }
  const capture: Capture = {
    shape: slug(name),
    tool: toolDefinitionAsGiven(input.tool),
    result: toolResultAsGiven(input.result),
    ...(input.arguments !== undefined && { arguments: input.arguments as Record<string, JsonValue> }),
  };
  const lines = parseClientLines(options.clients ?? installedClientLines().lines, 'replay: clients');
  return run(replayMatrix(capture, name, (options.expect ?? []).map(parseExpectRule), lines), options);
}

/** The recorded result shipped with the package for a built-in matrix (results/recorded*.json). */
export function recordedResult(name: MatrixName): ResultFile {
  const read = readRecordedResult(join(PROJECT_ROOT, 'results', RECORDED[name]));
  if (read.kind === 'missing') throw new InputError(`no recorded result for matrix ${name}`);
  return read.result;
}

/** A run compared with the recorded result of its built-in matrix, as the CLI compares it. */
export function compareWithShipped(name: MatrixName, result: ResultFile): Comparison {
  return compareWithRecorded(recordedResult(name), result, { fullMatrix: result.cases.length === MATRICES[name].scenarios.length });
}

/**
 * Writes what `captureTool` captured as a capture file that `mcp-sdk-probe replay FILE` reads (the
 * `{ name, tool, result }` form), atomically; refuses a path that is a folder or a symbolic link.
 */
export function writeCaptureFile(path: string, capture: Pick<CapturedToolCall, 'name' | 'tool' | 'result'> & Partial<Pick<CapturedToolCall, 'arguments'>>): void {
  writeFileAtomic(path, captureFileText(capture, path), path, { what: 'replay capture', maxDepth: MAX_JSON_DEPTH });
}

/** A sweep result file's text (`sweep --out FILE`), validated; `path` names it in errors. */
export function parseSweepText(text: string, path: string): SweepResult {
  // As written (its case records hold servers' JSON, own `__proto__` keys included: issue 20), to the depth
  // of a file the probe wrote.
  return parseJsonFileAsGiven(text, path, SweepResultSchema, 'sweep result', MAX_WRITTEN_JSON_DEPTH);
}

/**
 * Writes a report (Markdown, JUnit, HTML, JSON text) the way the CLI writes its outputs: atomically (a
 * temporary file renamed over the path), refusing a folder or a symbolic link at the path.
 */
export function writeReportFile(path: string, text: string): void {
  writeFileAtomic(path, text, path);
}

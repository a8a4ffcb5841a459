// Formats shared by the audit and replay commands, and where each goes.
import { execFileSync } from 'node:child_process';
import { basename, resolve } from 'node:path';
import type { Comparison } from '../core/compare.ts';
import type { CaseRecord, ResultFile, ResultHeader, Scenario } from '../core/domain.ts';
import type { ReleaseIdentity } from '../core/release.ts';
import { InputError } from '../core/errors.ts';
import { shellCommand, terminalJson, terminalLine } from '../core/escape.ts';
import { HARNESS, harnessRepository } from '../core/harness.ts';
import { renderJunit } from '../render/junit.ts';
import { renderMarkdown, type EvidenceContext } from '../render/markdown.ts';
import { serializeResult, serializeResultPieces } from '../io/json-files.ts';
import { checkOutputPath, writeFileAtomic, WRITTEN_FILE, type Guarded } from '../io/files.ts';
import { join } from 'node:path';
import { DEFAULT_RECORDED, DEFAULT_RECORDED_ECOSYSTEM, DEFAULT_RECORDED_EXTENDED, DEFAULT_SWEEP_BASELINE, displayPath, pathToPaste, PROJECT_ROOT, RESULTS_DIR, RUNS_FROM_CHECKOUT, type CliIo } from './io.ts';
import { reproInputs, writeReproFolder } from './repro.ts';

export const FORMATS = ['table', 'json', 'markdown', 'junit', 'repro'] as const;
export type Format = (typeof FORMATS)[number];

export function parseFormat(value: string | undefined, json: boolean): Format {
  if (json && value !== undefined && value !== 'json') throw new InputError(`--json and --format ${value} ask for two formats; choose one`);
  if (json) return 'json';
  const format = value ?? 'table';
  if (!(FORMATS as readonly string[]).includes(format)) throw new InputError(`--format ${format}: expected one of ${FORMATS.join(', ')}`);
  return format as Format;
}

function git(args: string[]): string | undefined {
  try {
    return execFileSync('git', args, { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'ignore'], encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

/** The harness's own git checkout, for the evidence's "Reproduce" section; absent outside a checkout. */
export function gitContext(): EvidenceContext['git'] {
  // An installed package's folder may sit inside someone else's repository: that commit is not ours.
  if (!RUNS_FROM_CHECKOUT) return undefined;
  const commit = git(['rev-parse', 'HEAD']);
  if (!commit) return undefined;
  const dirty = (git(['status', '--porcelain', '--untracked-files=no']) ?? '') !== '';
  return { commit, dirty };
}

/**
 * A result whose records are not held: its header, and its records read back one at a time, in case
 * order, each time they are asked for (the audit's run journal). Written, it is the same bytes as whole.
 */
export interface StreamedResult {
  readonly header: ResultHeader;
  readonly records: () => Iterable<CaseRecord>;
}

/** The canonical text of a result, whole or in pieces (see serializeResultPieces). */
export function resultPieces(result: ResultFile | StreamedResult): Iterable<string> {
  return 'records' in result ? serializeResultPieces(result.header, result.records()) : [serializeResult(result)];
}

export interface EmitInput {
  readonly result: ResultFile | StreamedResult;
  readonly comparison: Comparison | undefined;
  readonly format: Format;
  /** --out as given (absolute), or undefined. */
  readonly out: string | undefined;
  /** Where the result JSON goes when --out does not take it. */
  readonly defaultJsonPath: string;
  readonly recordedPath: string | undefined;
  readonly updatedRecorded: boolean;
  /** `--gate-identity`: identity changes fail the run too (the evidence says whether they are gated). */
  readonly gateIdentity?: boolean;
  readonly argv: readonly string[];
  /** The terminal table: the normal audit report, or with the lint findings for a replay. */
  readonly table: (writtenPath: string) => string;
  /** --format repro: the reproduction folder's files, written to --out. */
  readonly reproFiles?: Record<string, string>;
  /**
   * --format markdown: the cases that ran, the client releases (identities from the release cache) and
   * the time limit, for the evidence's standalone reproduction block. Absent: the block is left out.
   */
  readonly reproduction?: { readonly scenarios: readonly Scenario[]; readonly releases: readonly ReleaseIdentity[]; readonly timeoutMs: number };
}

/**
 * Where the result JSON goes by default: the command's path in results/, or the same file name in
 * MCP_SDK_PROBE_RESULTS_DIR when that is set (the tests use it to keep the checkout clean).
 */
export function defaultJsonPathFor(defaultJsonPath: string, io: CliIo): string {
  const dir = io.env.MCP_SDK_PROBE_RESULTS_DIR;
  return dir ? resolve(io.cwd, dir, basename(defaultJsonPath)) : defaultJsonPath;
}

/**
 * The recorded baselines (the project's, and results/ as the commands see it) and the inputs of this run
 * (its --recorded/--baseline files and the like): no output replaces one of them. `updating` is the file
 * an --update records: it may replace that one file, if it is a baseline of its own kind (a sweep
 * --update never writes over results/recorded.json, an audit --update never over the sweep baseline).
 */
export function guardedPaths(inputs: readonly { path: string; what: string }[] = [], updating?: { path: string; kind: 'audit' | 'sweep' }): Guarded[] {
  const baselines = [
    ...[DEFAULT_RECORDED, DEFAULT_RECORDED_EXTENDED, DEFAULT_RECORDED_ECOSYSTEM, ...['recorded.json', 'recorded-extended.json', 'recorded-ecosystem.json'].map((file) => join(PROJECT_ROOT, 'results', file))].map((path) => ({ path, kind: 'audit' })),
    ...[DEFAULT_SWEEP_BASELINE, join(PROJECT_ROOT, 'results', 'sweep-baseline.json')].map((path) => ({ path, kind: 'sweep' })),
    // The other matrices' sweep baselines (sweep --matrix extended|all), and the server sweeps' (--server-v1/--server-v2).
    ...['extended', 'all', 'server-audit', 'server-extended', 'server-all']
      .flatMap((m) => [join(RESULTS_DIR, `sweep-baseline-${m}.json`), join(PROJECT_ROOT, 'results', `sweep-baseline-${m}.json`)])
      .map((path) => ({ path, kind: 'sweep' })),
  ];
  return [
    ...baselines
      .filter((baseline) => !(updating && baseline.path === updating.path && baseline.kind === updating.kind))
      .map(({ path }) => ({ path, why: 'is a recorded baseline, rewritten only by the --update that records it' })),
    ...inputs.filter((input) => input.path !== updating?.path).map((input) => ({ path: input.path, why: `is the ${input.what} this run reads` })),
  ];
}

/** The label of an output path in errors: the flag when the user gave it. */
export function outputLabel(path: string, flag: string | undefined): string {
  return flag ? `${flag} ${path}` : path;
}

/** Where emit writes: the result JSON, and the Markdown/JUnit document when --out takes it. */
function plannedOutputs(format: Format, out: string | undefined, defaultJsonPath: string): { json: string; jsonLabel: string; document?: string } {
  // Markdown and JUnit documents go to --out, a repro folder too; the result JSON then to its default path.
  const documentFormat = format === 'markdown' || format === 'junit' || format === 'repro';
  const json = documentFormat || !out ? defaultJsonPath : out;
  return { json, jsonLabel: outputLabel(json, json === out ? '--out' : undefined), ...((format === 'markdown' || format === 'junit') && out ? { document: out } : {}) };
}

/** Where emit writes the result JSON. */
export function resultJsonPath(format: Format, out: string | undefined, defaultJsonPath: string): string {
  return plannedOutputs(format, out, defaultJsonPath).json;
}

/** Checks every path emit will write, before any work runs (see checkOutputPath). */
export function checkEmitOutputs(format: Format, out: string | undefined, defaultJsonPath: string, guarded: readonly Guarded[]): void {
  const planned = plannedOutputs(format, out, defaultJsonPath);
  checkOutputPath(planned.json, planned.jsonLabel, guarded);
  if (planned.document) checkOutputPath(planned.document, outputLabel(planned.document, '--out'), guarded);
}

/** The repro inputs of every case of `result` the run's scenarios describe (each case once). */
function evidenceReproduction(result: ResultFile, reproduction: NonNullable<EmitInput['reproduction']>) {
  const ran = new Set(result.cases.map((c) => c.id));
  return reproInputs(reproduction.scenarios.filter((s) => ran.has(s.id)), result, reproduction.timeoutMs, reproduction.releases);
}

/**
 * The result JSON is always written (to --out for table/json, else to the default path). Markdown and
 * JUnit documents go to --out when given, else to stdout; the table and --json go to stdout. A repro
 * folder goes to --out (required, checked before the run).
 */
export function emit(input: EmitInput, io: CliIo): void {
  const planned = plannedOutputs(input.format, input.out, defaultJsonPathFor(input.defaultJsonPath, io));
  const jsonPath = planned.json;
  if (input.format === 'repro') {
    if (!input.out || !input.reproFiles) throw new Error('emit: --format repro needs --out and the files');
    // The folder first: if it cannot be written, the run leaves nothing behind.
    writeReproFolder(input.out, input.reproFiles);
    writeFileAtomic(jsonPath, resultPieces(input.result), planned.jsonLabel, WRITTEN_FILE('result file'));
    const shown = pathToPaste(input.out, io.cwd);
    // The folder quoted for sh, so the command pasted runs there (`--out 'scen>pwned'` unquoted was a
    // redirect); shown on one line with no control character reaching the terminal.
    io.stderr(terminalLine(`Standalone reproduction written to ${shown} (run: ${shellCommand(['cd', shown])} && npm install --ignore-scripts --no-audit --no-fund && node repro.mjs)`) + '\n');
    return;
  }
  writeFileAtomic(jsonPath, resultPieces(input.result), planned.jsonLabel, WRITTEN_FILE('result file'));
  if (input.format === 'table') return io.stdout(input.table(pathToPaste(jsonPath, io.cwd)));
  if (input.format === 'json') {
    for (const piece of resultPieces(input.result)) io.stdout(terminalJson(piece));
    return;
  }
  // The Markdown and JUnit documents show every record: those formats hold them all (see docs/bug-reports.md).
  const result = 'records' in input.result ? { ...input.result.header, cases: [...input.result.records()] } : input.result;
  const document =
    input.format === 'junit'
      ? renderJunit(result)
      : renderMarkdown(result, input.comparison, {
          argv: input.argv,
          git: gitContext(),
          harness: { ...HARNESS, ...(harnessRepository() ? { repository: harnessRepository() } : {}) },
          ...(input.recordedPath ? { recordedPath: displayPath(input.recordedPath, io.cwd) } : {}),
          ...(input.reproduction && { reproduction: evidenceReproduction(result, input.reproduction) }),
          ...(input.gateIdentity && { gateIdentity: true }),
        });
  if (input.out) {
    writeFileAtomic(input.out, document, outputLabel(input.out, '--out'));
    io.stderr(`${input.format === 'junit' ? 'JUnit XML' : 'Markdown evidence'} written to ${pathToPaste(input.out, io.cwd)}\n`);
  } else io.stdout(document);
  if (input.format === 'markdown') {
    // GitHub refuses an issue or comment body over 65,536 characters ("Body is too long"); the Cases section
    // holds the tool and result once per case, so a result of a few KB or an extended matrix is over it.
    // The Reproduce section alone is bounded (REPRO_BLOCK_BYTES) and is what a maintainer runs.
    const characters = [...document].length;
    if (characters > GITHUB_BODY_CHARACTERS) {
      io.stderr(
        `note: the Markdown evidence is ${characters.toLocaleString('en-US')} characters, over the ${GITHUB_BODY_CHARACTERS.toLocaleString('en-US')} a GitHub issue body holds: attach it as a file, and paste its Reproduce section into the issue\n`,
      );
    }
  }
}

/** The most characters GitHub takes in an issue or comment body. */
const GITHUB_BODY_CHARACTERS = 65_536;

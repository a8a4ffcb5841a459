// `sweep` and `merge`: a matrix (audit, extended, all, and --scenarios) against many client releases,
// with change points, a recorded baseline per matrix and the newest-vs-pinned gate.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { dirname, join, resolve } from 'node:path';
import { SDK_LINES, type Matrix, type ResultFile, type Scenario } from '../core/domain.ts';
import { checkCasePatternsGiven, checkCasePatternsMatch, selectScenarios } from '../core/select.ts';
import { loadUserScenarios } from '../io/user-scenarios.ts';
import { renderSweepHtml } from '../render/sweep-html.ts';
import { renderSweepMarkdown } from '../render/sweep-markdown.ts';
import { chosenMatrices, MATRICES, RECORDED_FOR } from './audit.ts';
import { captureEnvironment } from '../io/environment.ts';
import { InputError } from '../core/errors.ts';
import { terminalJson, terminalLine } from '../core/escape.ts';
import type { LoadableRelease } from '../releases/cache.ts';
import { releaseRequests, resolveReleases, serverReleaseRequests, type ReleaseRequest } from '../releases/resolve.ts';
import { sdkLineOf, SERVER_PACKAGES, type Side } from '../core/release.ts';
import { leftOutOfClientSweep, leftOutOfServerSweep, scenariosFor } from '../sweep/side.ts';
import { renderSweepReport } from '../render/sweep.ts';
import { readJsonFile, readJsonFileAsGiven, readRecordedResult } from '../io/json-files.ts';
import { checkOutputPath, makeFolder, MAX_WRITTEN_JSON_DEPTH, writeFileAtomic, WRITTEN_FILE } from '../io/files.ts';
import { guardedPaths, outputLabel } from './report.ts';
import type { ReleaseLine } from '../core/domain.ts';
import { ndjsonReleaseLines, ndjsonTail, serializeBaseline, serializeSweep, sweepToNdjson } from '../sweep/files.ts';
import {
  compareNewestWithPinned,
  compareWithBaseline,
  mergeIntoBaseline,
  SweepBaselineSchema,
  sweepExitCode,
  sweepSide,
  type SweepBaseline,
} from '../sweep/gates.ts';
import { releaseKey } from '../core/release.ts';
import { changePoints, portablePath, requestedSpecs, summarize, SWEEP_SCHEMA_VERSION, SweepResultSchema, type ReleaseRun, type RequestedSpecs, type SweepResult } from '../sweep/model.ts';
import { startSweepWorkersEarly, stopEarlyWorkers } from '../sweep/pool.ts';
import { runJournalledSweep, sweepFingerprint, sweepJournalPath } from '../sweep/stream.ts';
import { mergeShards, parseShard, selectShard } from '../sweep/shard.ts';
import {
  DEFAULT_SWEEP_BASELINE,
  DEFAULT_SWEEP_OUT,
  displayPath,
  isCi,
  paintFor,
  pathToPaste,
  PROJECT_ROOT,
  RESULTS_DIR,
  releaseContext,
  resolveFrom,
  REWRITE_LINE,
  RUNS_FROM_CHECKOUT,
  type CliIo,
} from './io.ts';

export interface SweepReportOptions {
  readonly json: boolean;
  readonly ndjson: boolean;
  readonly out?: string;
  readonly baseline?: string;
  readonly recorded?: string;
  readonly update: boolean;
  /** table (default) or html (the report as one self-contained page, to --out or stdout). */
  readonly format?: string;
  /** --gate-identity: identity changes (the error's class name) fail the gates too, not only behaviour. */
  readonly gateIdentity?: boolean;
}

/**
 * The release flags, each repeatable: every spec of a line runs, each release once, in release order
 * (`--v1 1.20.0..1.22.0 --v1 ./my-build.tgz`: a local build beside a range, issue 21).
 */
export interface SweepOptions extends SweepReportOptions {
  readonly v1?: readonly string[];
  readonly v2?: readonly string[];
  /** `--ai-sdk`: `@ai-sdk/mcp` releases, running the ai-sdk cases (the ecosystem matrix has them). */
  readonly aiSdk?: readonly string[];
  /** A server sweep: these releases of the server packages, against the pinned clients. */
  readonly serverV1?: readonly string[];
  readonly serverV2?: readonly string[];
  readonly prerelease: boolean;
  readonly jobs?: number;
  readonly shard?: string;
  readonly timeout: number;
  readonly matrix?: string;
  readonly scenarios?: string;
  /** --allow-scenario-code: the user trusts the .ts/.mts scenario modules of --scenarios, which are code. */
  readonly allowScenarioCode?: boolean;
  readonly case: readonly string[];
  /** Continue an interrupted sweep from its journal (<result file>.journal.ndjson). */
  readonly resume?: boolean;
}

const SWEEP_FORMATS = ['table', 'html', 'markdown'] as const;
type SweepFormat = (typeof SWEEP_FORMATS)[number];

function parseSweepFormat(options: SweepReportOptions): SweepFormat {
  const format = options.format ?? 'table';
  if (!(SWEEP_FORMATS as readonly string[]).includes(format)) throw new InputError(`--format ${format}: expected one of ${SWEEP_FORMATS.join(', ')}`);
  if (format !== 'table' && (options.json || options.ndjson)) throw new InputError(`--format ${format} and ${options.json ? '--json' : '--ndjson'}: choose one`);
  return format as SweepFormat;
}

/** `--scenarios` adds user cases to a matrix; the sweep's matrix then has a name of its own (and its own baseline). */
const WITH_SCENARIOS = '+scenarios';

/**
 * The recorded sweep baseline of a matrix and side: results/sweep-baseline.json for the audit's client
 * sweep, sweep-baseline-<matrix>.json for the other client sweeps, sweep-baseline-server-<matrix>.json for
 * server sweeps (the audit's included).
 */
export function defaultBaselineFor(matrix: string, side: Side = 'client'): string {
  if (side === 'server') return resolve(RESULTS_DIR, `sweep-baseline-server-${matrix}.json`);
  return matrix === 'audit' ? DEFAULT_SWEEP_BASELINE : resolve(RESULTS_DIR, `sweep-baseline-${matrix}.json`);
}

/** The pinned clients' recorded results a matrix's newest-vs-pinned gate compares with (none for a matrix without one). */
function defaultRecordedFor(matrix: string): string[] {
  const base = matrix.endsWith(WITH_SCENARIOS) ? matrix.slice(0, -WITH_SCENARIOS.length) : matrix;
  if (base === 'all') return chosenMatrices('all').map((name) => RECORDED_FOR[name]);
  return Object.hasOwn(RECORDED_FOR, base) ? [RECORDED_FOR[base as keyof typeof RECORDED_FOR]] : [];
}

function recordedPathsFor(matrix: string, options: SweepReportOptions, io: CliIo): string[] {
  const defaults = defaultRecordedFor(matrix);
  if (options.recorded === undefined) return defaults;
  if (defaults.length > 1) {
    throw new InputError(`--recorded names one file; matrix ${matrix} is compared with its own (${defaults.map((p) => displayPath(p, io.cwd)).join(', ')})`);
  }
  return [resolveFrom(io, options.recorded, options.recorded)];
}

interface SweptMatrix {
  readonly matrix: Matrix;
  /** The selected built-in case ids: the newest-vs-pinned gate covers these (user scenarios have no recorded result). */
  readonly builtInIds: ReadonlySet<string>;
  /** --case narrowed the run: the baseline is compared on the selected cases only. */
  readonly subset: boolean;
}

/** --matrix, --scenarios and --case, as the audit reads them, into the one matrix every release runs. */
async function sweptMatrix(options: SweepOptions, io: CliIo): Promise<SweptMatrix> {
  const names = chosenMatrices(options.matrix);
  checkCasePatternsGiven(options.case);
  if (options.update && options.case.length > 0) throw new InputError('--update records the whole matrix; drop --case to use it');
  const matrices = await Promise.all(names.map((name) => MATRICES[name]()));
  let user: Scenario[] = [];
  if (options.scenarios) {
    const builtIn = await Promise.all(Object.values(MATRICES).map((load) => load()));
    user = await loadUserScenarios(resolve(io.cwd, options.scenarios), options.scenarios, new Set(builtIn.flatMap((m) => m.scenarios.map((s) => s.id))), {
      allowCode: options.allowScenarioCode === true,
      // A capture file's cases on the lines a client sweep can vary (the SDK lines, and the AI SDK's when
      // swept): its LangChain case would only be left out of every release.
      captureLines: options.aiSdk === undefined ? SDK_LINES : [...SDK_LINES, 'ai-sdk'],
    });
  }
  // The ecosystem matrix repeats the audit's v1/v2 cells (same ids, same cases): each id once, the first.
  const ids = new Set<string>();
  const builtIn = matrices.flatMap((m) => m.scenarios).filter((s) => !ids.has(s.id) && Boolean(ids.add(s.id)));
  const all = [...builtIn, ...user];
  checkCasePatternsMatch(options.case, all.map((s) => s.id), `matrix ${names.length === 1 ? names[0] : 'all'}${user.length > 0 ? ' or --scenarios' : ''}`);
  const scenarios = selectScenarios(all, options.case);
  const builtInIds = new Set(selectScenarios(builtIn, options.case).map((s) => s.id));
  const first = matrices[0]!;
  const one = matrices.length === 1;
  const name = (one ? first.name : 'all') + (options.scenarios ? WITH_SCENARIOS : '');
  const title = (one ? first.title : matrices.map((m) => m.title).join(' + ')) + (options.scenarios ? ' + user scenarios' : '');
  const source = [...matrices.map((m) => m.source), ...(options.scenarios ? [`--scenarios ${portablePath(options.scenarios)}`] : [])].join('; ');
  return { matrix: { name, title, source, scenarios }, builtInIds, subset: options.case.length > 0 };
}

/**
 * Which side the sweep varies, from its release flags. One side per sweep: a client range and a server
 * range together would vary both ends of the wire, and a change point could not say which release made
 * it (nor which baseline it belongs to). Both lines of one side are fine: each line's releases run their
 * own cases, as two tables.
 */
export function sweepRequests(options: { readonly [flag in 'v1' | 'v2' | 'aiSdk' | 'serverV1' | 'serverV2']?: string | readonly string[] }): { requests: ReleaseRequest[]; side: Side } {
  const client = releaseRequests({ v1: options.v1, v2: options.v2, 'ai-sdk': options.aiSdk });
  const server = serverReleaseRequests({ v1: options.serverV1, v2: options.serverV2 });
  if (client.length > 0 && server.length > 0) {
    throw new InputError(
      `${client.map((r) => r.flag).join('/')} and ${server.map((r) => r.flag).join('/')}: a sweep varies one side of the wire (clients or servers); run two sweeps, each has its own baseline`,
    );
  }
  if (client.length === 0 && server.length === 0) {
    throw new InputError('sweep needs --v1, --v2 and/or --ai-sdk (for example --v1 1.10.0..latest), or --server-v1 and/or --server-v2 for server releases');
  }
  return server.length > 0 ? { requests: server, side: 'server' } : { requests: client, side: 'client' };
}

/**
 * A server sweep runs the cases whose fixture the swept server packages serve; the others are left out
 * and said so (SweepResult.leftOut, one line in every report). A line whose package serves no case of the
 * matrix would sweep nothing: that is a usage error, not an empty pass.
 */
function serverSweepCases(matrix: Matrix, requests: readonly ReleaseRequest[]): NonNullable<SweepResult['leftOut']> {
  for (const request of requests) {
    if (scenariosFor(matrix.scenarios, { side: 'server', line: request.line }).length === 0) {
      throw new InputError(
        `${request.flag}: no case of matrix ${matrix.name} runs a fixture from ${SERVER_PACKAGES[sdkLineOf(request.line)]} in process; ` +
          `${request.line === 'v2' ? 'the v2 server cases are in --matrix extended (server-side and protocol-era families) or all' : 'choose another --matrix or --case'}`,
      );
    }
  }
  return leftOutOfServerSweep(matrix.scenarios, requests.map((r) => sdkLineOf(r.line)));
}

/**
 * A client sweep runs each swept line's cases; the ecosystem lines' cases (ai-sdk, langchain: other
 * packages, pinned) run in no release and are left out and said so. A sweep whose selection leaves no case
 * of a swept line would run nothing: a usage error, not an empty pass.
 */
function clientSweepCases(matrix: Matrix, requests: readonly ReleaseRequest[]): SweepResult['leftOut'] {
  // The ai-sdk cases live in the ecosystem matrix only: --ai-sdk with another matrix would sweep nothing.
  const aiSdk = requests.find((request) => request.line === 'ai-sdk');
  if (aiSdk && !matrix.scenarios.some((s) => s.client === 'ai-sdk')) {
    throw new InputError(`${aiSdk.flag}: no selected case of matrix ${matrix.name} runs on the ai-sdk client; use --matrix ecosystem`);
  }
  if (requests.every((request) => !matrix.scenarios.some((s) => s.client === request.line))) {
    throw new InputError(`${requests.map((r) => r.flag).join('/')}: no selected case of matrix ${matrix.name} runs on the ${requests.map((r) => r.line).join('/')} client; the ecosystem lines (ai-sdk, langchain) are not swept`);
  }
  const leftOut = leftOutOfClientSweep(matrix.scenarios, requests.map((r) => r.line));
  return leftOut.length > 0 ? leftOut : undefined;
}

/** No baseline file is a state (nothing recorded yet), not an error; a file that is there must be valid. */
function readBaseline(path: string, matrix: string, side: Side): SweepBaseline | undefined {
  const baseline = existsSync(path) ? readJsonFile(path, SweepBaselineSchema, 'sweep baseline', path, MAX_WRITTEN_JSON_DEPTH) : undefined;
  if (baseline && baseline.matrix !== matrix) throw new InputError(`${path}: a sweep baseline of matrix ${baseline.matrix}, not ${matrix}; name the matrix's own with --baseline`);
  if (baseline && baseline.side !== side) throw new InputError(`${path}: a sweep baseline of ${baseline.side} releases, not ${side} releases; name the ${side} sweep's own with --baseline`);
  return baseline;
}

/** A --case subset is compared on the cases it ran; the baseline's other cases are not a difference. */
function onlyCases(baseline: SweepBaseline | undefined, ids: ReadonlySet<string>): SweepBaseline | undefined {
  if (!baseline) return undefined;
  const releases = baseline.releases.map((entry) => ({ ...entry, behaviours: Object.fromEntries(Object.entries(entry.behaviours).filter(([id]) => ids.has(id))) }));
  return { ...baseline, releases };
}

/** The recorded results of a matrix's parts as one (only the cases matter to the gate). */
function readRecordedCases(paths: readonly string[]): ResultFile | undefined {
  let combined: ResultFile | undefined;
  for (const path of paths) {
    const read = readRecordedResult(path);
    if (read.kind === 'missing') throw new InputError(`${path}: no recorded audit result to compare the newest releases with`);
    combined = combined ? { ...combined, cases: [...combined.cases, ...read.result.cases] } : read.result;
  }
  return combined;
}

/** "latest" as the upper end of what was asked for (`latest`, `A..latest`) asks about the newest release. */
export function gatedLines(request: SweepResult['request']): ReleaseLine[] {
  const asked = { v1: request.serverV1 ?? request.v1, v2: request.serverV2 ?? request.v2, 'ai-sdk': request.aiSdk };
  return (['v1', 'v2', 'ai-sdk'] as const).filter((line) => requestedSpecs(asked[line]).some((text) => /(^|\.\.)latest$/.test(text.trim())));
}

function progress(io: CliIo) {
  const tty = io.stderrIsTty && !isCi(io.env);
  return {
    line(message: string) {
      io.stderr(tty ? `${REWRITE_LINE}${terminalLine(message)}` : `${terminalLine(message)}\n`);
    },
    done() {
      if (tty) io.stderr(REWRITE_LINE);
    },
  };
}

function validateReportOptions(options: SweepReportOptions, io: CliIo, shard: boolean): SweepFormat {
  if (options.json && options.ndjson) throw new InputError('--json and --ndjson both print to stdout; choose one');
  const format = parseSweepFormat(options);
  if (options.update && isCi(io.env)) throw new InputError('--update rewrites the sweep baseline and is refused when CI is set');
  if (options.update && shard) throw new InputError('--update records a whole sweep; merge the shards, then update from the merge');
  if (options.update && options.baseline === undefined && !RUNS_FROM_CHECKOUT) {
    throw new InputError('--update would rewrite the sweep baseline inside the installed package; record into a file of your own with --baseline FILE');
  }
  return format;
}

/** Where report() writes: the sweep result JSON (--out, or the default path when --out takes the HTML page), the page, the baseline. */
interface ReportPaths {
  readonly json: string;
  readonly jsonLabel: string;
  /** --format html|markdown: the document's file; undefined prints it to stdout. */
  readonly html?: string;
  readonly baseline: string;
  readonly recorded: readonly string[];
}

function reportPaths(options: SweepReportOptions, format: SweepFormat, matrix: string, io: CliIo, side: Side): ReportPaths {
  const out = options.out === undefined ? undefined : resolveFrom(io, options.out, DEFAULT_SWEEP_OUT);
  const json = format !== 'table' || !out ? DEFAULT_SWEEP_OUT : out;
  return {
    json,
    jsonLabel: outputLabel(json, json === out ? '--out' : undefined),
    ...(format !== 'table' && out !== undefined && { html: out }),
    baseline: resolveFrom(io, options.baseline, defaultBaselineFor(matrix, side)),
    recorded: recordedPathsFor(matrix, options, io),
  };
}

/**
 * Checks, before any work, the files report() writes: --out never replaces a recorded baseline or an
 * input of this run (the --baseline, --recorded and shard files); --update writes only the baseline.
 */
function checkReportOutputs(paths: ReportPaths, options: SweepReportOptions, shardFiles: readonly string[] = []): void {
  const inputs = [
    { path: paths.baseline, what: 'sweep baseline' },
    ...paths.recorded.map((path) => ({ path, what: 'recorded result' })),
    ...shardFiles.map((path) => ({ path, what: 'sweep result to merge' })),
  ];
  checkOutputPath(paths.json, paths.jsonLabel, guardedPaths(inputs));
  if (paths.html) {
    checkOutputPath(paths.html, outputLabel(paths.html, '--out'), [...guardedPaths(inputs), { path: paths.json, why: 'is where the sweep result JSON goes' }]);
  }
  if (options.update) {
    checkOutputPath(paths.baseline, `${paths.baseline} (--update)`, guardedPaths(inputs, { path: paths.baseline, kind: 'sweep' }));
  }
}

interface ReportInputs {
  readonly format: SweepFormat;
  readonly paths: ReportPaths;
  readonly baseline: SweepBaseline | undefined;
  /** The built-in case ids the newest-vs-pinned gate covers; all when absent. */
  readonly gateIds?: ReadonlySet<string>;
  /** --ndjson: the release lines went to stdout as the sweep went; only the rest is left to print. */
  readonly streamed?: boolean;
}

/** Gates, files and output shared by `sweep` and `merge`. Inputs were validated before anything ran. */
function report(result: SweepResult, options: SweepReportOptions, io: CliIo, inputs: ReportInputs): number {
  const { paths } = inputs;
  // A shard knows only part of the sweep: its gates run on the merge.
  const gated = result.shard ? [] : gatedLines(result.request);
  const recorded = gated.length > 0 && paths.recorded.length > 0 ? readRecordedCases(paths.recorded) : undefined;
  // merge does not know which cases were user scenarios: it gates the recorded cases the sweep ran.
  const ran = () => new Set(result.releases.flatMap((run) => (run.status === 'ran' ? run.cases.map((c) => c.id) : [])));
  const gateIds = inputs.gateIds ?? (recorded && new Set(recorded.cases.map((c) => c.id).filter((id) => ran().has(id))));
  const pinned = recorded ? compareNewestWithPinned(recorded, result, gated, gateIds) : [];
  const baseline = result.shard || !inputs.baseline ? undefined : compareWithBaseline(inputs.baseline, result);
  const gateIdentity = options.gateIdentity === true;

  writeFileAtomic(paths.json, serializeSweep(result), paths.jsonLabel, WRITTEN_FILE('sweep result'));
  if (options.update) writeFileAtomic(paths.baseline, serializeBaseline(mergeIntoBaseline(inputs.baseline, result)), `${paths.baseline} (--update)`, WRITTEN_FILE('sweep baseline'));

  const terminal = () =>
    renderSweepReport({
      result,
      baseline: result.shard ? [] : baseline,
      // A --baseline the user named is a file to paste (outside the working folder, its whole path); the
      // default one keeps its name in the project, and the evidence below displayPath (issue 21).
      baselinePath: options.baseline === undefined ? displayPath(paths.baseline, io.cwd) : pathToPaste(paths.baseline, io.cwd),
      updatedBaseline: options.update,
      pinned,
      writtenPath: pathToPaste(paths.json, io.cwd),
      gateIdentity,
      paint: paintFor(io),
    });
  if (inputs.format !== 'table') {
    const page =
      inputs.format === 'html'
        ? renderSweepHtml(result)
        : renderSweepMarkdown({ result, baseline: result.shard ? [] : baseline, baselinePath: displayPath(paths.baseline, io.cwd), updatedBaseline: options.update, pinned, writtenPath: undefined, gateIdentity });
    if (paths.html) {
      writeFileAtomic(paths.html, page, outputLabel(paths.html, '--out'));
      io.stdout(`${terminal()}${terminalLine(`Sweep report (${inputs.format === 'html' ? 'HTML' : 'Markdown'}) written to ${pathToPaste(paths.html, io.cwd)}`)}\n`);
    } else io.stdout(page);
  } else if (options.json) io.stdout(terminalJson(serializeSweep(result)));
  else if (options.ndjson) io.stdout(terminalJson(inputs.streamed ? ndjsonTail(result) : sweepToNdjson(result)));
  else io.stdout(terminal());
  return sweepExitCode({ baseline: baseline ?? [], pinned, updatedBaseline: options.update, gateIdentity });
}

export async function runSweepCommand(options: SweepOptions, io: CliIo): Promise<number> {
  try {
    return (await sweepCommand(options, io)).code;
  } finally {
    stopEarlyWorkers();
  }
}

/**
 * A matrix a command made itself (a replay's capture: `replay FILE --v1 RANGE`), swept as `sweep` sweeps
 * its own, with `baselineName` naming its default baseline (results/sweep-baseline-<name>.json).
 */
export interface GivenMatrix {
  readonly matrix: Matrix;
  readonly baselineName: string;
}

/** `sweep` over a given matrix instead of --matrix/--scenarios/--case: one sweep machinery (issue 21). */
export async function runSweepOfMatrix(given: GivenMatrix, options: SweepOptions, io: CliIo): Promise<{ code: number; result: SweepResult }> {
  try {
    return await sweepCommand(options, io, given);
  } finally {
    stopEarlyWorkers();
  }
}

async function sweepCommand(options: SweepOptions, io: CliIo, given?: GivenMatrix): Promise<{ code: number; result: SweepResult }> {
  const shard = options.shard === undefined ? undefined : parseShard(options.shard);
  const format = validateReportOptions(options, io, shard !== undefined);
  const { requests, side } = sweepRequests(options);
  // The workers load the harness and the fixture server while this thread reads the inputs and resolves the releases.
  const workerUrl = pathToFileURL(join(PROJECT_ROOT, 'dist', 'sweep-worker.mjs'));
  startSweepWorkersEarly(workerUrl, options.jobs ?? availableParallelism());
  const { matrix, builtInIds, subset } = given ? { matrix: given.matrix, builtInIds: new Set<string>(), subset: false } : await sweptMatrix(options, io);
  const leftOut = side === 'server' ? serverSweepCases(matrix, requests) : clientSweepCases(matrix, requests);
  const paths = reportPaths(options, format, given?.baselineName ?? matrix.name, io, side);
  checkReportOutputs(paths, options);
  // Each finished release is journalled beside the result JSON, which is only ever replaced whole.
  const journalFile = sweepJournalPath(paths.json);
  checkOutputPath(journalFile, `${journalFile} (the sweep journal)`, guardedPaths([{ path: paths.baseline, what: 'sweep baseline' }]));
  const recordedBaseline = readBaseline(paths.baseline, matrix.name, side);
  const baseline = subset ? onlyCases(recordedBaseline, new Set(matrix.scenarios.map((s) => s.id))) : recordedBaseline;
  // validated up front: a bad file must stop the run before it starts
  for (const path of paths.recorded) readRecordedResult(path);

  const status = progress(io);
  const releases: LoadableRelease[] = await resolveReleases(
    requests,
    releaseContext(io, options.prerelease, (count) => status.line(`installing ${count} ${side} release${count === 1 ? '' : 's'} with one npm install…`)),
  );
  const plan = releases.map(releaseKey);
  const mine = selectShard(releases, shard);
  const environment = captureEnvironment();
  // Stored as the evidence shows it: a path of this machine by its file name (portablePath, issue 21).
  const asked = (given: readonly string[] | undefined): RequestedSpecs | null => {
    const specs = given?.map(portablePath);
    return specs === undefined ? null : specs.length === 1 ? specs[0]! : specs;
  };
  const request: SweepResult['request'] = {
    v1: asked(options.v1),
    v2: asked(options.v2),
    // Only when asked for, so a v1/v2 sweep's result stays as it was.
    ...(options.aiSdk !== undefined && { aiSdk: asked(options.aiSdk)! }),
    ...(side === 'server' && { serverV1: asked(options.serverV1), serverV2: asked(options.serverV2) }),
    prerelease: options.prerelease,
    ...(!given && options.scenarios !== undefined && { scenarios: portablePath(options.scenarios) }),
    ...(!given && options.scenarios !== undefined && options.allowScenarioCode === true && { allowScenarioCode: true }),
  };
  makeFolder(dirname(journalFile), journalFile);
  const sweep = await runJournalledSweep(mine, {
    matrix,
    environment,
    timeoutMs: options.timeout,
    jobs: options.jobs,
    workerUrl,
    journalFile,
    fingerprint: sweepFingerprint({ matrix, request, releases: mine, shard, timeoutMs: options.timeout, environment }),
    resume: options.resume === true,
    onResumed: (count) => {
      if (options.resume) status.line(`resuming: ${count} of ${mine.length} releases are in the journal`);
    },
    onRelease: (run, done, total, ms) =>
      status.line(`[${done}/${total}] ${releaseKey(run.release)} ${run.status === 'ran' ? `ran ${run.cases.length} cases` : `failed (${run.stage})`} in ${ms} ms`),
    ...(options.ndjson && { inOrder: (run: ReleaseRun) => io.stdout(terminalJson(ndjsonReleaseLines(run))) }),
  });
  const runs = sweep.runs;
  status.done();
  const result: SweepResult = {
    schemaVersion: SWEEP_SCHEMA_VERSION,
    kind: 'sweep',
    matrix: { name: matrix.name, title: matrix.title, source: matrix.source },
    environment,
    request,
    plan,
    ...(shard && { shard }),
    releases: runs,
    changePoints: changePoints(runs),
    ...(leftOut && { leftOut }),
    summary: summarize(runs),
  };
  const code = report(result, options, io, { format, paths, baseline, gateIds: builtInIds, streamed: options.ndjson });
  sweep.finish();
  return { code, result };
}

export async function runMergeCommand(files: readonly string[], options: SweepReportOptions, io: CliIo): Promise<number> {
  const format = validateReportOptions(options, io, false);
  const shardFiles = files.map((file) => resolveFrom(io, file, file));
  // The outputs are checked before the shards are read (an --out over a shard is refused as such), and
  // again once the shards name the matrix, whose own baseline and recorded result are then the inputs.
  checkReportOutputs(reportPaths(options, format, 'audit', io, 'client'), options, shardFiles);
  // Shards as written: their case records hold servers' JSON, own `__proto__` keys included (issue 20).
  const parts = shardFiles.map((path) => ({ path: displayPath(path, io.cwd), result: readJsonFileAsGiven(path, SweepResultSchema, 'sweep result', path, MAX_WRITTEN_JSON_DEPTH) }));
  const merged = mergeShards(parts);
  const side = sweepSide(merged);
  const paths = reportPaths(options, format, merged.matrix.name, io, side);
  checkReportOutputs(paths, options, shardFiles);
  const baseline = readBaseline(paths.baseline, merged.matrix.name, side);
  return report(merged, options, io, { format, paths, baseline });
}

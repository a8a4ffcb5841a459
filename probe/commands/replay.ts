// `replay FILE`: how every client line and discovery mode treats one captured result.
import { basename, join, resolve } from 'node:path';
import { readCapture } from '../io/capture.ts';
import { MAX_INPUT_BYTES } from '../io/files.ts';
import { CASE_FIELD_LEVEL, prettyJsonBytes } from '../io/json-files.ts';
import { InputError } from '../core/errors.ts';
import { EXIT, exitCodeFor } from '../core/exit-code.ts';
import { parseExpectRule, type ExpectRule } from '../core/expect-spec.ts';
import type { Capture, ClientLine } from '../core/domain.ts';
import { replayMatrix } from '../../scenarios/replay.ts';
import { renderTerminalReport } from '../render/terminal.ts';
import { caseMatcher, checkCasePatternsMatch, parseClientLines, selectScenarios } from '../core/select.ts';
import { installedClientLines, runMatrix } from '../engine/run.ts';
import { displayPath, paintFor, RESULTS_DIR, type CliIo } from './io.ts';
import { checkEmitOutputs, defaultJsonPathFor, emit, guardedPaths, parseFormat } from './report.ts';
import { checkReproRequest, reproFiles } from './repro.ts';
import { clientsUnderTest } from './audit.ts';
import { releaseRequests, type ReleaseRequest } from '../releases/resolve.ts';
import { parseReleaseSpec } from '../releases/spec.ts';
import { renderUnmetExpectations, unmetExpectations } from '../render/replay-sweep.ts';

export interface ReplayOptions {
  /** Client releases to replay through (repeatable, as for sweep); a range or several specs make it a sweep. */
  readonly v1?: readonly string[];
  readonly v2?: readonly string[];
  /** `--ai-sdk`: `@ai-sdk/mcp` releases for the ai-sdk cases, as for --v1. */
  readonly aiSdk?: readonly string[];
  /** Refused: the capture is the server's answer (see SERVER_FLAGS_REFUSED). */
  readonly serverV1?: readonly string[];
  readonly serverV2?: readonly string[];
  readonly prerelease?: boolean;
  /** Over several releases: the sweep baseline to compare with, and --update to record it (as sweep's). */
  readonly baseline?: string;
  readonly update?: boolean;
  readonly json: boolean;
  readonly format?: string;
  readonly out?: string;
  readonly expect: readonly string[];
  readonly timeout: number;
  readonly jobs?: number;
  readonly case: readonly string[];
  readonly clients?: string;
}

export const DEFAULT_REPLAY_OUT = join(RESULTS_DIR, 'replay-latest.json');

/**
 * The formats a replay over several releases writes: a sweep's (sweep.ts) but Markdown, whose Reproduce
 * command is a `sweep` of a built-in matrix (render/sweep-markdown.ts) and would not name the capture.
 */
const SWEEP_FORMATS = ['table', 'json', 'html'] as const;

/**
 * Whether the releases asked for make the replay a sweep: a range (`1.20.0..1.22.0`, `^1.20`) or more than
 * one spec for a line. One release per line (a version, latest, a tarball, a folder) replays as the audit
 * runs another release: the capture's cases once, that line's on that release.
 */
function isSweep(requests: readonly ReleaseRequest[]): boolean {
  return requests.some((request, i) => {
    const spec = parseReleaseSpec(request.flag, request.text);
    const range = spec.kind === 'registry' && (spec.query.kind === 'span' || spec.query.kind === 'range');
    return range || requests.findIndex((other) => other.line === request.line) !== i;
  });
}

export async function runReplayCommand(file: string, options: ReplayOptions, io: CliIo, argv: readonly string[]): Promise<number> {
  // A server sweep varies the server's code; a capture is one answer a server already sent, replayed as sent.
  for (const [flag, given] of [['--server-v1', options.serverV1], ['--server-v2', options.serverV2]] as const) {
    if (given !== undefined) throw new InputError(`${flag}: a replay sends the captured result as the server sent it; it varies client releases only (--v1, --v2, --ai-sdk)`);
  }
  const requests = releaseRequests({ v1: options.v1, v2: options.v2, 'ai-sdk': options.aiSdk });
  if (isSweep(requests)) return replaySweep(file, options, requests, io);
  if (options.baseline !== undefined || options.update === true) {
    throw new InputError(`${options.baseline !== undefined ? '--baseline' : '--update'}: a sweep baseline is for a replay over several releases (a range, or a line's releases given more than once)`);
  }
  const format = parseFormat(options.format, options.json);
  const path = resolve(io.cwd, file);
  const out = options.out === undefined ? undefined : resolve(io.cwd, options.out);
  checkEmitOutputs(format, out, defaultJsonPathFor(DEFAULT_REPLAY_OUT, io), guardedPaths([{ path, what: 'replay capture' }]));
  const capture = readCapture(path, displayPath(path, io.cwd));
  const rules = options.expect.map(parseExpectRule);
  // Every line this install can run by default; an ecosystem line whose optional packages are missing is
  // named on stderr rather than failing the replay (the SDK lines are always there), once the replay goes
  // ahead (below): a replay refused for bad input prints its one error line only (issue 21).
  const installed = options.clients === undefined ? installedClientLines() : undefined;
  const lines = installed ? installed.lines : parseClientLines(options.clients!, '--clients');
  const { matrix, selected } = replayCases(capture, basename(path), rules, lines, options.case);
  // Every case records the capture's result (cases[i].result). When those copies alone would make the
  // result file more than the probe reads back, the replay is refused now, not after its cases ran; the
  // writer still checks the whole file (issue 20).
  const copyBytes = prettyJsonBytes(capture.result, CASE_FIELD_LEVEL);
  if (copyBytes * selected.length > MAX_INPUT_BYTES) {
    throw new InputError(
      `${displayPath(path, io.cwd)}: its result file would be over ${MAX_INPUT_BYTES} bytes (64 MiB), more than the probe reads back: each of its ${selected.length} cases records this result, ${copyBytes} bytes as the file indents it`,
    );
  }
  const reproDir = format === 'repro' ? checkReproRequest(options.out, selected, io) : undefined;
  // As the audit runs `--v1 X`: each named release resolved, installed if need be, and loaded once here.
  const clients = await clientsUnderTest(requests, options.prerelease === true, io);
  for (const { line, install } of installed?.left ?? []) io.stderr(`note: the ${line} client line is left out: its packages are not installed (npm install --save-dev ${install})\n`);
  // A reproduction names each release that ran (an alias, or a build by its integrity).
  const releasesRan = Object.values(clients);
  const result = await runMatrix(matrix, selected, { timeoutMs: options.timeout, pool: { ...(options.jobs !== undefined && { jobs: options.jobs }), clients } });
  const repro = reproDir !== undefined ? reproFiles(selected, result, options.timeout, releasesRan) : undefined;
  emit(
    {
      result,
      comparison: undefined,
      format,
      out: reproDir ?? out,
      ...(repro && { reproFiles: repro }),
      ...(format === 'markdown' && { reproduction: { scenarios: selected, releases: releasesRan, timeoutMs: options.timeout } }),
      defaultJsonPath: DEFAULT_REPLAY_OUT,
      recordedPath: undefined,
      updatedRecorded: false,
      argv,
      table: (writtenPath) =>
        renderTerminalReport({ result, comparison: undefined, showLint: true, recordedPath: '', updatedRecorded: false, writtenPath, paint: paintFor(io) }),
    },
    io,
  );
  return exitCodeFor({ result, comparison: undefined, updatedRecorded: false });
}

/**
 * `replay FILE --v1 RANGE`: the capture's cases swept over the releases, by the sweep command's own
 * machinery (baseline results/sweep-baseline-replay-<shape>.json, change points, reports), on the lines
 * asked for (or --clients). Exit 1 also when a case does not do what --expect says in some release.
 */
async function replaySweep(file: string, options: ReplayOptions, requests: readonly ReleaseRequest[], io: CliIo): Promise<number> {
  const format = options.json ? 'json' : (options.format ?? 'table');
  if (!(SWEEP_FORMATS as readonly string[]).includes(format)) {
    throw new InputError(`--format ${format}: a replay over several releases writes ${SWEEP_FORMATS.slice(0, -1).join(', ')} or ${SWEEP_FORMATS.at(-1)}`);
  }
  const path = resolve(io.cwd, file);
  const capture = readCapture(path, displayPath(path, io.cwd));
  const rules = options.expect.map(parseExpectRule);
  const swept = [...new Set(requests.map((r) => r.line))];
  const lines = options.clients === undefined ? swept : parseClientLines(options.clients, '--clients');
  // A sweep runs each line's cases on that line's releases only: a line it does not vary would run nowhere.
  const unswept = lines.filter((line) => !(swept as readonly string[]).includes(line));
  if (unswept.length > 0) {
    throw new InputError(`--clients ${options.clients}: a replay over several releases runs only the lines it varies (${swept.map((l) => `--${l}`).join(', ')}); ${unswept.join(', ')} is not one of them`);
  }
  const { matrix, selected: scenarios } = replayCases(capture, basename(path), rules, lines, options.case);
  // Loaded when a replay sweeps, as cli.ts loads the sweep command: a replay of one release does not pay for it.
  const { runSweepOfMatrix } = await import('./sweep.ts');
  const { code, result } = await runSweepOfMatrix(
    { matrix: { ...matrix, scenarios }, baselineName: `replay-${capture.shape}` },
    {
      json: format === 'json',
      ndjson: false,
      ...(format !== 'json' && format !== 'table' && { format }),
      ...(options.out !== undefined && { out: options.out }),
      update: options.update === true,
      ...(options.baseline !== undefined && { baseline: options.baseline }),
      ...(options.v1 !== undefined && { v1: options.v1 }),
      ...(options.v2 !== undefined && { v2: options.v2 }),
      ...(options.aiSdk !== undefined && { aiSdk: options.aiSdk }),
      prerelease: options.prerelease === true,
      ...(options.jobs !== undefined && { jobs: options.jobs }),
      timeout: options.timeout,
      case: [],
    },
    io,
  );
  const unmet = unmetExpectations(result);
  const text = renderUnmetExpectations(unmet, paintFor(io));
  // On stdout after the table; beside a document or JSON on stdout, on stderr.
  if (text) (format === 'table' ? io.stdout : io.stderr)(text);
  return unmet.length > 0 ? EXIT.failed : code;
}

/** The replay's matrix over `lines` and the cases `--case` selects; an `--expect` or `--case` pattern that matches no case is exit 2. */
function replayCases(capture: Capture, label: string, rules: readonly ExpectRule[], lines: readonly ClientLine[], casePatterns: readonly string[]) {
  const matrix = replayMatrix(capture, label, rules, lines);
  for (const rule of rules) {
    if (rule.pattern !== undefined && !matrix.scenarios.some((s) => caseMatcher(rule.pattern!)(s.id))) {
      throw new InputError(`--expect ${rule.pattern}=${rule.word}: the pattern matches no case; ids look like ${matrix.scenarios[0]?.id}`);
    }
  }
  checkCasePatternsMatch(casePatterns, matrix.scenarios.map((s) => s.id), 'this replay');
  return { matrix, selected: selectScenarios(matrix.scenarios, casePatterns) };
}

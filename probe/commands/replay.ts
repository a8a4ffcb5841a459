// `replay FILE`: how every client line and discovery mode treats one captured result.
import { basename, join, resolve } from 'node:path';
import { readCapture } from '../io/capture.ts';
import { MAX_INPUT_BYTES } from '../io/files.ts';
import { CASE_FIELD_LEVEL, prettyJsonBytes } from '../io/json-files.ts';
import { InputError } from '../core/errors.ts';
import { exitCodeFor } from '../core/exit-code.ts';
import { parseExpectRule } from '../core/expect-spec.ts';
import { replayMatrix } from '../../scenarios/replay.ts';
import { renderTerminalReport } from '../render/terminal.ts';
import { caseMatcher, checkCasePatternsMatch, parseClientLines, selectScenarios } from '../core/select.ts';
import { installedClientLines, runMatrix } from '../engine/run.ts';
import { displayPath, paintFor, RESULTS_DIR, type CliIo } from './io.ts';
import { checkEmitOutputs, defaultJsonPathFor, emit, guardedPaths, parseFormat } from './report.ts';
import { checkReproRequest, reproFiles } from './repro.ts';

export interface ReplayOptions {
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

export async function runReplayCommand(file: string, options: ReplayOptions, io: CliIo, argv: readonly string[]): Promise<number> {
  const format = parseFormat(options.format, options.json);
  const path = resolve(io.cwd, file);
  const out = options.out === undefined ? undefined : resolve(io.cwd, options.out);
  checkEmitOutputs(format, out, defaultJsonPathFor(DEFAULT_REPLAY_OUT, io), guardedPaths([{ path, what: 'replay capture' }]));
  const capture = readCapture(path, displayPath(path, io.cwd));
  const rules = options.expect.map(parseExpectRule);
  // Every line this install can run by default; an ecosystem line whose optional packages are missing is
  // named on stderr rather than failing the replay (the SDK lines are always there).
  const installed = options.clients === undefined ? installedClientLines() : undefined;
  for (const { line, install } of installed?.left ?? []) io.stderr(`note: the ${line} client line is left out: its packages are not installed (npm install --save-dev ${install})\n`);
  const lines = installed ? installed.lines : parseClientLines(options.clients!, '--clients');
  const matrix = replayMatrix(capture, basename(path), rules, lines);
  for (const rule of rules) {
    if (rule.pattern !== undefined && !matrix.scenarios.some((s) => caseMatcher(rule.pattern!)(s.id))) {
      throw new InputError(`--expect ${rule.pattern}=${rule.word}: the pattern matches no case; ids look like ${matrix.scenarios[0]?.id}`);
    }
  }
  checkCasePatternsMatch(options.case, matrix.scenarios.map((s) => s.id), 'this replay');
  const selected = selectScenarios(matrix.scenarios, options.case);
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
  const result = await runMatrix(matrix, selected, { timeoutMs: options.timeout, pool: { ...(options.jobs !== undefined && { jobs: options.jobs }) } });
  const repro = reproDir !== undefined ? reproFiles(selected, result, options.timeout) : undefined;
  emit(
    {
      result,
      comparison: undefined,
      format,
      out: reproDir ?? out,
      ...(repro && { reproFiles: repro }),
      ...(format === 'markdown' && { reproduction: { scenarios: selected, releases: [], timeoutMs: options.timeout } }),
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

// `mcp-sdk-probe explore`: model-based exploration against the real client lines (issue #13), or the
// replay of one finding (--replay FILE). The search, the oracles and the files live in probe/explore/.
import { resolve } from 'node:path';
import { adapters } from '../clients/index.ts';
import { SDK_LINES, type SdkLine } from '../core/domain.ts';
import { InputError } from '../core/errors.ts';
import { terminalLine, terminalText } from '../core/escape.ts';
import { checkFolderPath, checkOutputPath, makeFolder, MAX_JSON_DEPTH, MAX_WRITTEN_JSON_DEPTH, writeFileAtomic, WRITTEN_FILE } from '../io/files.ts';
import { readInputText } from '../io/files.ts';
import { parseJsonFile, readJsonFile } from '../io/json-files.ts';
import { explore, type Finding } from '../explore/explore.ts';
import {
  compareWithKnown,
  exploreExitCode,
  explainViolation,
  findingSlug,
  FindingFileSchema,
  knownFileOf,
  KnownFileSchema,
  renderFindingMarkdown,
  renderFindingsTable,
  scenarioOf,
  serializeFinding,
  serializeScenario,
  type KnownFile,
} from '../explore/findings.ts';
import { DEFAULT_MAX_STEPS } from '../explore/generate.ts';
import { describeSequence } from '../explore/model.ts';
import { checkTraces, violationClass } from '../explore/oracles.ts';
import { DEFAULT_STEP_LIMIT_MS, runSequence } from '../explore/run.ts';
import { REPRO_EXIT } from '../core/exit-code.ts';
import { REPRO_EXIT_LINE } from '../render/repro.ts';
import { captureEnvironment } from '../io/environment.ts';
import { DEFAULT_EXPLORE_KNOWN, DEFAULT_EXPLORE_OUT, displayPath, isCi, pathToPaste, resolveFrom, RUNS_FROM_CHECKOUT, type CliIo } from './io.ts';

export interface ExploreOptions {
  readonly runs: number;
  readonly seed: number;
  readonly clients: string;
  readonly out?: string;
  readonly known?: string;
  readonly update: boolean;
  readonly replay?: string;
  readonly format?: string;
}


export function parseClients(text: string): SdkLine[] {
  const names = text.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(SDK_LINES as readonly string[]).includes(name));
  if (names.length === 0 || unknown.length > 0) throw new InputError(`--clients ${text}: expected a comma-separated list of ${SDK_LINES.join(', ')}`);
  if (new Set(names).size !== names.length) throw new InputError(`--clients ${text}: names a client line twice`);
  return names as SdkLine[];
}

function packagesOf(clients: readonly SdkLine[]): Record<string, string> {
  const installed = captureEnvironment().packages;
  return Object.fromEntries(clients.map((c) => [adapters[c].packageName, installed[adapters[c].packageName] ?? 'unknown']));
}

export async function runExploreCommand(options: ExploreOptions, io: CliIo): Promise<number> {
  const clients = parseClients(options.clients);
  const format = options.format ?? 'table';
  if (!['table', 'markdown'].includes(format)) throw new InputError(`--format ${format}: explore prints table (default) or markdown (with --replay)`);
  const run = (sequence: Parameters<typeof runSequence>[0]) => runSequence(sequence, clients, { stepLimitMs: DEFAULT_STEP_LIMIT_MS });
  if (options.replay !== undefined) return replayFinding(options.replay, clients, format, run, io);
  if (format !== 'table') throw new InputError('--format markdown prints one finding: use it with --replay FILE (every finding is also written as Markdown to --out)');

  if (options.update && isCi(io.env)) throw new InputError('--update rewrites the known findings and is refused when CI is set');
  const knownPath = resolveFrom(io, options.known, DEFAULT_EXPLORE_KNOWN);
  if (options.update && options.known === undefined && !RUNS_FROM_CHECKOUT) {
    throw new InputError('--update would rewrite the known findings inside the installed package; record into a file of your own with --known FILE');
  }
  const outDir = resolveFrom(io, options.out, DEFAULT_EXPLORE_OUT);
  checkFolderPath(outDir, `--out ${options.out ?? displayPath(outDir, io.cwd)}`);
  if (options.update) checkOutputPath(knownPath, `${displayPath(knownPath, io.cwd)} (--update)`);
  const knownText = readInputText(knownPath, 'known findings');
  const known: KnownFile | undefined = knownText === undefined ? undefined : parseJsonFile(knownText, knownPath, KnownFileSchema, 'known-findings file', MAX_WRITTEN_JSON_DEPTH);

  const settings = { seed: options.seed, runs: options.runs, clients, maxSteps: DEFAULT_MAX_STEPS };
  const result = await explore(run, settings);
  makeFolder(outDir, `--out ${displayPath(outDir, io.cwd)}`);
  const packages = packagesOf(clients);
  const fileOf = (f: Finding) => displayPath(resolve(outDir, `${findingSlug(f.class)}.json`), io.cwd);
  // The table points the person here to each file for `explore --replay FILE` (issue 21); the finding's
  // Markdown, which leaves the machine, names it with fileOf.
  const fileHereOf = (f: Finding) => pathToPaste(resolve(outDir, `${findingSlug(f.class)}.json`), io.cwd);
  for (const finding of result.findings) {
    const base = resolve(outDir, findingSlug(finding.class));
    writeFileAtomic(`${base}.json`, serializeFinding(finding), `${base}.json`, WRITTEN_FILE('explore finding'));
    const traces = await run(finding.sequence);
    writeFileAtomic(`${base}.md`, renderFindingMarkdown({ finding, violation: finding.violation, traces, packages, file: fileOf(finding) }));
    // Findings the scenario format can say also go to DIR/scenarios/, for --scenarios DIR/scenarios.
    const scenario = scenarioOf(finding, traces);
    if (scenario) writeFileAtomic(resolve(outDir, 'scenarios', `${findingSlug(finding.class)}.json`), serializeScenario(scenario), undefined, { what: 'scenario file', maxDepth: MAX_JSON_DEPTH });
  }
  const comparison = compareWithKnown(known, result.findings, settings);
  if (options.update) writeFileAtomic(knownPath, knownFileOf(settings, result.findings), `${displayPath(knownPath, io.cwd)} (--update)`, WRITTEN_FILE('known-findings file'));

  const shownKnown = pathToPaste(knownPath, io.cwd);
  io.stdout(renderFindingsTable(result.findings, comparison, fileHereOf));
  const summary = [
    `explore: ${result.generated} sequences generated (seed ${options.seed}), ${result.sequencesRun} run with shrinking, against ${clients.join(', ')}`,
    `${result.findings.length} finding${result.findings.length === 1 ? '' : 's'}: ${comparison.new.length} new, ${comparison.known.length} known (${shownKnown}${known ? '' : ': none recorded'})`,
  ];
  if (comparison.stale.length > 0) summary.push(`stale: ${comparison.stale.join(', ')} recorded with these settings but not found`);
  if (!comparison.sameSettings && known) summary.push(`(recorded with --seed ${known.settings.seed} --runs ${known.settings.runs} --clients ${known.settings.clients.join(',')}; other settings may find other classes)`);
  if (options.update) summary.push(`recorded the findings in ${shownKnown}`);
  // Classes and settings come from the known-findings file: text, not control sequences (issue 20).
  io.stdout(terminalText(`${summary.join('\n')}\n`));
  return exploreExitCode(comparison, options.update);
}

/**
 * Runs one finding file's sequence again, answering by the convention of every "does it still reproduce"
 * (REPRO_EXIT, issue 21): 1 while the finding reproduces, 0 once it no longer does, 125 when the sequence
 * could not run at all (a client that does not load, a fixture that does not start), so `git bisect run`
 * skips that commit instead of calling it good or bad. A bad finding file stays exit 2 (InputError).
 */
async function replayFinding(
  path: string,
  clients: readonly SdkLine[],
  format: string,
  run: (sequence: Parameters<typeof runSequence>[0]) => ReturnType<typeof runSequence>,
  io: CliIo,
): Promise<number> {
  const file = readJsonFile(resolve(io.cwd, path), FindingFileSchema, 'explore finding', path, MAX_WRITTEN_JSON_DEPTH);
  const missing = file.clients.filter((c) => !clients.includes(c));
  if (missing.length > 0) throw new InputError(`${path}: the finding is about ${file.clients.join(', ')}; --clients ${clients.join(',')} leaves out ${missing.join(', ')}`);
  let traces: Awaited<ReturnType<typeof run>>;
  try {
    traces = await run(file.sequence);
  } catch (error) {
    if (error instanceof InputError) throw error;
    io.stderr(`could not run: ${terminalLine(String((error as Error)?.message ?? error).split('\n')[0]!)}\n${REPRO_EXIT_LINE}\n`);
    return REPRO_EXIT.couldNotRun;
  }
  const violations = checkTraces(traces).filter((v) => violationClass(v) === file.class);
  if (format === 'markdown') {
    io.stdout(renderFindingMarkdown({ finding: file, ...(violations[0] && { violation: violations[0] }), traces, packages: packagesOf(clients), file: path }));
  } else {
    // The finding file is anyone's: its class and tool names are shown as text (issue 20).
    io.stdout(`${terminalLine(file.class)}\n  ${terminalLine(describeSequence(file.sequence))}\n`);
    io.stdout(violations.length > 0 ? `  reproduced: ${terminalLine(explainViolation(violations[0]!))}\n` : '  not reproduced: the clients no longer show it\n');
  }
  return violations.length > 0 ? REPRO_EXIT.reproduced : REPRO_EXIT.notReproduced;
}

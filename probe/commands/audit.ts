// The default command: the audit matrix against the pinned clients, or against other releases of them
// (--v1 / --v2), judged against the audit and compared with the recorded result.
import { auditMatrix } from '../../scenarios/audit.ts';
import { combineComparisons, startComparison, type CaseComparison } from '../core/compare.ts';
import type { ClientLine, Matrix, ResultFile, ResultHeader, Scenario } from '../core/domain.ts';
import { InputError } from '../core/errors.ts';
import { exitCodeFor } from '../core/exit-code.ts';
import { loadClientUnderTest, type ClientModuleRef } from '../clients/load.ts';
import type { ReleaseIdentity } from '../core/release.ts';
import { releaseRequests, resolveReleases, type ReleaseRequest } from '../releases/resolve.ts';
import { caseLine, renderTerminalReport, type CaseLine } from '../render/terminal.ts';
import { readRecordedResult } from '../io/json-files.ts';
import { checkOutputPath, makeFolder, writeFileAtomic, WRITTEN_FILE } from '../io/files.ts';
import { checkEmitOutputs, defaultJsonPathFor, emit, guardedPaths, parseFormat, resultJsonPath, resultPieces, type StreamedResult } from './report.ts';
import { journalPath, openJournal, readJournal, runFingerprint } from '../io/journal.ts';
import { checkReproRequest, reproFiles } from './repro.ts';
import { loadUserScenarios } from '../io/user-scenarios.ts';
import { availableParallelism } from 'node:os';
import { dirname, resolve } from 'node:path';
import { defaultJobs, startCaseThreadEarly } from '../engine/pool.ts';
import { combineHeaders, environmentFor, installedClientLines, streamMatrices, type StreamedPart } from '../engine/run.ts';
import { captureEnvironment } from '../io/environment.ts';
import { checkCasePatternsGiven, checkCasePatternsMatch, selectScenarios } from '../core/select.ts';
import { DEFAULT_OUT, DEFAULT_RECORDED, DEFAULT_RECORDED_ECOSYSTEM, DEFAULT_RECORDED_EXTENDED, RUNS_FROM_CHECKOUT, displayPath, isCi, paintFor, pathToPaste, releaseContext, resolveFrom, type CliIo } from './io.ts';

export interface AuditOptions {
  readonly json: boolean;
  readonly format?: string;
  readonly out?: string;
  readonly case: readonly string[];
  readonly timeout: number;
  readonly recorded?: string;
  readonly update: boolean;
  /** --gate-identity: a case whose error's class name or message alone changed fails the run too. */
  readonly gateIdentity: boolean;
  /** Every --v1/--v2 given; more than one per line is refused (the audit runs one release per line). */
  readonly v1?: readonly string[];
  readonly v2?: readonly string[];
  readonly prerelease: boolean;
  readonly scenarios?: string;
  /** --allow-scenario-code: the user trusts the .ts/.mts scenario modules of --scenarios, which are code. */
  readonly allowScenarioCode: boolean;
  readonly matrix?: string;
  readonly jobs?: number;
  readonly resume: boolean;
}

/**
 * The releases --v1/--v2 name, one per line, each checked to load here before any case runs (the pool's
 * threads load them again), with their identities (a reproduction names the build by them). The audit's,
 * and a replay's against one release (replay.ts).
 */
export async function clientsUnderTest(
  requests: readonly ReleaseRequest[],
  prerelease: boolean,
  io: CliIo,
): Promise<Partial<Record<ClientLine, ClientModuleRef & ReleaseIdentity>>> {
  if (requests.length === 0) return {};
  const releases = await resolveReleases(requests, {
    ...releaseContext(io, prerelease, (count) => io.stderr(`installing ${count} client release${count === 1 ? '' : 's'} into the release cache…\n`)),
    onePerLine: true,
  });
  const clients: Partial<Record<ClientLine, ClientModuleRef & ReleaseIdentity>> = {};
  for (const request of requests) {
    const chosen = releases.filter((r) => r.line === request.line);
    if (chosen.length !== 1) {
      throw new InputError(`${request.flag} ${request.text} names ${chosen.length} releases; the audit runs one per line (use the sweep command for ranges)`);
    }
    try {
      await loadClientUnderTest(chosen[0]!);
      clients[request.line] = chosen[0]!;
    } catch (error) {
      throw new InputError(`${request.flag} ${request.text}: the release does not load (${(error as Error).message})`);
    }
  }
  return clients;
}

/**
 * The built-in matrices `--matrix` chooses from, each with its own recorded result. Loaded on demand:
 * building the extended matrix's cases is work the default audit should not pay for.
 */
export const MATRICES = {
  audit: async () => auditMatrix,
  extended: async () => (await import('../../scenarios/extended/index.ts')).extendedMatrix,
  ecosystem: async () => (await import('../../scenarios/ecosystem.ts')).ecosystemMatrix,
} as const satisfies Record<string, () => Promise<Matrix>>;
/** The header of user scenarios (--scenarios) when they run as their own part of a report. */
const USER_MATRIX: Matrix = { name: 'scenarios', title: 'user scenarios', source: '--scenarios', scenarios: [] };
export const MATRIX_CHOICES = ['audit', 'extended', 'ecosystem', 'all'] as const;
export const RECORDED_FOR = {
  audit: DEFAULT_RECORDED,
  extended: DEFAULT_RECORDED_EXTENDED,
  ecosystem: DEFAULT_RECORDED_ECOSYSTEM,
} as const satisfies Record<keyof typeof MATRICES, string>;

export function chosenMatrices(name: string | undefined): (keyof typeof MATRICES)[] {
  const choice = name ?? 'audit';
  if (choice === 'all') return ['audit', 'extended', 'ecosystem'];
  if (choice in MATRICES) return [choice as keyof typeof MATRICES];
  throw new InputError(`--matrix ${choice}: expected one of ${MATRIX_CHOICES.join(', ')}`);
}

export async function runAuditCommand(options: AuditOptions, io: CliIo, argv: readonly string[]): Promise<number> {
  const format = parseFormat(options.format, options.json);
  const names = chosenMatrices(options.matrix);
  if (options.recorded !== undefined && names.length > 1) {
    throw new InputError(`--recorded names one file; with --matrix all each matrix is compared with its own (${Object.values(RECORDED_FOR).map((p) => displayPath(p, io.cwd)).join(', ')})`);
  }
  const recordedPaths = names.map((name) => resolveFrom(io, options.recorded, RECORDED_FOR[name]));
  const otherReleases = options.v1 !== undefined || options.v2 !== undefined;
  const environment = captureEnvironment();
  const matrices = await Promise.all(names.map((name) => MATRICES[name]()));
  // The case threads load the clients while this thread reads and checks the inputs: as many as the run
  // will use (one for the audit; one per core for a whole larger matrix), each with every client line the
  // matrices use (the run's threads are these: engine/run.ts streamMatrices), so no start-up is paid
  // after the inputs are read (issue 10: --matrix all speed).
  if (!otherReleases) {
    const cases = matrices.reduce((sum, m) => sum + m.scenarios.length, 0);
    const earlyThreads = options.case.length > 0 ? 1 : options.jobs !== undefined ? Math.min(options.jobs, cases) : defaultJobs(cases, availableParallelism());
    let threadEnvironment = environment;
    try {
      threadEnvironment = environmentFor(matrices.flatMap((m) => m.scenarios), environment);
    } catch {
      // A line's packages are missing: the run stops with that below, after the other input checks.
    }
    startCaseThreadEarly({ environment: threadEnvironment }, earlyThreads);
  }
  if (options.update && isCi(io.env)) {
    // vitest's rule for snapshots: baselines are recorded on purpose by a person, never by CI.
    throw new InputError('--update rewrites the recorded result and is refused when CI is set');
  }
  if (options.update && options.case.length > 0) throw new InputError('--update records the whole matrix; drop --case to use it');
  if (options.update && otherReleases) throw new InputError('--update records the pinned clients; drop --v1/--v2 to use it');
  if (options.update && options.recorded === undefined && !RUNS_FROM_CHECKOUT) {
    throw new InputError('--update would rewrite the recorded result inside the installed package; record into a file of your own with --recorded FILE');
  }
  checkCasePatternsGiven(options.case);
  // Every path this run writes is checked before any work: a bad --out changes nothing and costs nothing.
  const out = options.out === undefined ? undefined : resolveFrom(io, options.out, DEFAULT_OUT);
  const inputs = recordedPaths.map((path) => ({ path, what: 'recorded result' }));
  checkEmitOutputs(format, out, defaultJsonPathFor(DEFAULT_OUT, io), guardedPaths(inputs));
  if (options.update) {
    for (const path of recordedPaths) checkOutputPath(path, `${path} (--update)`, guardedPaths(inputs, { path, kind: 'audit' }));
  }
  let userScenarios: Scenario[] = [];
  if (options.scenarios) {
    const builtIn = await Promise.all(Object.values(MATRICES).map((load) => load()));
    const builtInIds = new Set(builtIn.flatMap((m) => m.scenarios.map((s) => s.id)));
    // A capture file among them runs on every line this install can run, as `replay` runs it.
    userScenarios = await loadUserScenarios(resolve(io.cwd, options.scenarios), options.scenarios, builtInIds, {
      allowCode: options.allowScenarioCode,
      captureLines: installedClientLines().lines,
    });
  }
  // The ecosystem matrix repeats the audit's v1/v2 cells beside the other lines (same ids, same cases):
  // run together (--matrix all), each id runs once, in the first matrix that has it, and is compared there
  // only. --update records every matrix whole, so it runs a repeated case in each.
  const seen = new Set<string>();
  const repeated = matrices.map(() => new Set<string>());
  const selected = matrices.map((m, i) =>
    selectScenarios(m.scenarios, options.case).filter((s) => {
      if (options.update || !seen.has(s.id)) return Boolean(seen.add(s.id));
      repeated[i]!.add(s.id);
      return false;
    }),
  );
  const selectedUser = selectScenarios(userScenarios, options.case);
  checkCasePatternsMatch(
    options.case,
    [...matrices.flatMap((m) => m.scenarios), ...userScenarios].map((s) => s.id),
    `matrix ${names.length === 1 ? names[0] : 'all'}${userScenarios.length > 0 ? ' or --scenarios' : ''}`,
  );
  // --format repro: the selected cases, each reproducible standalone, into a new or empty folder; checked first.
  const reproDir = format === 'repro' ? checkReproRequest(options.out, [...selected.flat(), ...selectedUser], io) : undefined;
  // Read (and validate) the recorded results before running anything, so bad input changes nothing.
  const recorded = recordedPaths.map((path) => readRecordedResult(path, { replacing: options.update }));
  const clients = await clientsUnderTest(releaseRequests(options), options.prerelease, io);

  // Each case is journalled as it finishes, beside the result file; --resume runs only what is missing.
  const resultPath = resultJsonPath(format, out, defaultJsonPathFor(DEFAULT_OUT, io));
  const journalFile = journalPath(resultPath);
  checkOutputPath(journalFile, `${journalFile} (the run journal)`, guardedPaths(inputs));
  const run = runFingerprint(
    { matrices: names, sizes: selected.map((part) => part.length), user: selectedUser.length, timeout: options.timeout, clients, packages: environment.packages },
    [...selected.flat(), ...selectedUser],
  );
  const resumed = options.resume ? readJournal(journalFile, run) : undefined;
  makeFolder(dirname(journalFile), journalFile);
  const journal = openJournal(journalFile, run, resumed !== undefined);
  const pool = {
    ...(options.jobs !== undefined && { jobs: options.jobs }),
    clients,
    ...(resumed && { resumed }),
  };

  // Each built-in matrix is compared with its own recorded result, and all of them (and user scenarios)
  // run in one pool run, sharing the threads. No record is kept for the run: each goes to the journal as
  // it is over, leaving its report line and comparison entry behind, and the result file is assembled
  // from the journal at the end (issue 10: memory flat).
  const partOf = (matrix: Matrix, scenarios: readonly Scenario[], before?: { result: ResultFile | undefined; fullMatrix: boolean }) => {
    const comparer = before && startComparison(before.result, {
      fullMatrix: before.fullMatrix,
      // Another release is expected to have another package label; what matters is whether it behaves
      // like the pinned client the recorded result was made with.
      ignore: otherReleases ? ['clientPackage'] : [],
    });
    const lines: CaseLine[] = new Array(scenarios.length);
    const entries: CaseComparison[] = new Array(scenarios.length);
    const streamed: StreamedPart = {
      matrix,
      scenarios,
      onCase: (index, done, wasResumed) => {
        if (!wasResumed) journal.append(done.record, done.lint);
        lines[index] = caseLine(done.record);
        if (comparer) entries[index] = comparer.compare(done.record);
      },
    };
    const ids = scenarios.map((scenario) => scenario.id);
    return { streamed, finish: (header: ResultHeader) => ({ header, lines, ids, comparison: comparer?.finish(entries) }) };
  };
  const builtIn = matrices.map((m, i) => {
    const before = recorded[i]!;
    // A case repeated from an earlier matrix was compared there (see `repeated` above), not here.
    const recordedHere = before.kind === 'found' ? { ...before.result, cases: before.result.cases.filter((c) => !repeated[i]!.has(c.id)) } : undefined;
    return partOf(m, selected[i]!, { result: recordedHere, fullMatrix: selected[i]!.length + repeated[i]!.size === m.scenarios.length });
  });
  // User scenarios run beside them; only built-in cases have recorded results.
  const userPart = userScenarios.length > 0 ? partOf(USER_MATRIX, selectedUser) : undefined;
  const headers = await streamMatrices([...builtIn, ...(userPart ? [userPart] : [])].map((part) => part.streamed), { timeoutMs: options.timeout, environment, pool });
  const parts = builtIn.map((part, i) => {
    const own = part.finish(headers[i]!);
    return { ...own, comparison: own.comparison!, path: recordedPaths[i]! };
  });
  const user = userPart?.finish(headers[builtIn.length]!);
  const first = matrices[0]!;
  const all = [...parts, ...(user ? [user] : [])];
  const header =
    all.length === 1
      ? all[0]!.header
      : combineHeaders(
          {
            name: matrices.length === 1 ? first.name : 'all',
            title: matrices.length === 1 ? first.title : matrices.map((m) => m.title).join(' + '),
            source: matrices.length === 1 ? first.source : matrices.map((m) => m.source).join('; '),
          },
          all.map((p) => p.header),
        );
  const result: StreamedResult = { header, records: () => journal.records(all.flatMap((p) => p.ids)) };
  const comparison = combineComparisons(parts.map((p) => p.comparison));
  const reproCases = [...selected.flat(), ...selectedUser];
  // The identities of the releases that ran (a local build is known only by its source and integrity).
  const releasesRan = Object.values(clients);
  const repro =
    reproDir !== undefined
      ? reproFiles(reproCases, { ...header, cases: [...journal.records(reproCases.map((s) => s.id))] }, options.timeout, releasesRan)
      : undefined;
  if (options.update) {
    for (const part of parts) {
      const own: StreamedResult = { header: part.header, records: () => journal.records(part.ids) };
      writeFileAtomic(part.path, resultPieces(own), `${part.path} (--update)`, WRITTEN_FILE('result file'));
    }
  }
  // The terminal's "Compared with": a --recorded the user named is a file to paste (outside the working
  // folder, its whole path); the default keeps its name in the project, the evidence (emit's
  // recordedPath) displayPath (issue 21).
  const shownRecorded = parts.map((p) => (options.recorded === undefined ? displayPath(p.path, io.cwd) : pathToPaste(p.path, io.cwd))).join(' and ');
  emit(
    {
      result,
      comparison,
      format,
      out: reproDir ?? out,
      ...(repro && { reproFiles: repro }),
      ...(format === 'markdown' && { reproduction: { scenarios: reproCases, releases: releasesRan, timeoutMs: options.timeout } }),
      defaultJsonPath: DEFAULT_OUT,
      recordedPath: parts.length === 1 ? parts[0]!.path : undefined,
      updatedRecorded: options.update,
      gateIdentity: options.gateIdentity,
      argv,
      table: (writtenPath) =>
        renderTerminalReport({
          result: { ...header, caseLines: all.flatMap((p) => p.lines) },
          comparison,
          recordedPath: shownRecorded,
          updatedRecorded: options.update,
          writtenPath,
          paint: paintFor(io),
          gateIdentity: options.gateIdentity,
        }),
    },
    io,
  );
  journal.finish();
  return exitCodeFor({ result: header, comparison, updatedRecorded: options.update, gateIdentity: options.gateIdentity });
}

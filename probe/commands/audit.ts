// The default command: the audit matrix against the pinned clients, or against other releases of them
// (--v1 / --v2), judged against the audit and compared with the recorded result.
import { auditMatrix } from '../../scenarios/audit.ts';
import { compareWithRecorded } from '../compare.ts';
import type { ClientLine } from '../domain.ts';
import { InputError } from '../errors.ts';
import { exitCodeFor } from '../exit-code.ts';
import { defaultCacheDir } from '../releases/cache.ts';
import { loadClientUnderTest, resolveReleases } from '../releases/resolve.ts';
import { renderTerminalReport } from '../render/terminal.ts';
import { readRecordedResult, serializeResult, writeFileAtomic } from '../result-file.ts';
import { emit, parseFormat } from './report.ts';
import { loadUserScenarios } from '../user-scenarios.ts';
import { resolve } from 'node:path';
import { runMatrix, selectScenarios, type ClientUnderTest } from '../run.ts';
import { DEFAULT_OUT, DEFAULT_RECORDED, displayPath, isCi, paintFor, PROJECT_ROOT, resolveFrom, type CliIo } from './io.ts';

export interface AuditOptions {
  readonly json: boolean;
  readonly format?: string;
  readonly out?: string;
  readonly case: readonly string[];
  readonly timeout: number;
  readonly recorded?: string;
  readonly update: boolean;
  readonly v1?: string;
  readonly v2?: string;
  readonly prerelease: boolean;
  readonly scenarios?: string;
}

async function clientsUnderTest(options: AuditOptions, io: CliIo): Promise<Partial<Record<ClientLine, ClientUnderTest>>> {
  const requests = (['v1', 'v2'] as const)
    .filter((line) => options[line] !== undefined)
    .map((line) => ({ line, flag: `--${line}`, text: options[line]! }));
  if (requests.length === 0) return {};
  const releases = await resolveReleases(requests, {
    projectRoot: PROJECT_ROOT,
    cacheDir: defaultCacheDir(PROJECT_ROOT, io.env),
    cwd: io.cwd,
    prerelease: options.prerelease,
    onePerLine: true,
    warn: (message) => io.stderr(`warning: ${message}\n`),
    onInstall: (count) => io.stderr(`installing ${count} client release${count === 1 ? '' : 's'} into the release cache…\n`),
  });
  const clients: Partial<Record<ClientLine, ClientUnderTest>> = {};
  for (const request of requests) {
    const chosen = releases.filter((r) => r.line === request.line);
    if (chosen.length !== 1) {
      throw new InputError(`${request.flag} ${request.text} names ${chosen.length} releases; the audit runs one per line (use the sweep command for ranges)`);
    }
    try {
      clients[request.line] = await loadClientUnderTest(chosen[0]!);
    } catch (error) {
      throw new InputError(`${request.flag} ${request.text}: the release does not load (${(error as Error).message})`);
    }
  }
  return clients;
}

export async function runAuditCommand(options: AuditOptions, io: CliIo, argv: readonly string[]): Promise<number> {
  const format = parseFormat(options.format, options.json);
  const recordedPath = resolveFrom(io, options.recorded, DEFAULT_RECORDED);
  const otherReleases = options.v1 !== undefined || options.v2 !== undefined;
  if (options.update && isCi(io.env)) {
    // vitest's rule for snapshots: baselines are recorded on purpose by a person, never by CI.
    throw new InputError('--update rewrites the recorded result and is refused when CI is set');
  }
  if (options.update && options.case.length > 0) throw new InputError('--update records the whole matrix; drop --case to use it');
  if (options.update && otherReleases) throw new InputError('--update records the pinned clients; drop --v1/--v2 to use it');
  const userScenarios = options.scenarios
    ? await loadUserScenarios(resolve(io.cwd, options.scenarios), options.scenarios, new Set(auditMatrix.scenarios.map((s) => s.id)))
    : [];
  // User scenarios run beside the built-in matrix; only the built-in cases are in the recorded result.
  const matrix = userScenarios.length > 0 ? { ...auditMatrix, scenarios: [...auditMatrix.scenarios, ...userScenarios] } : auditMatrix;
  const builtIn = new Set(auditMatrix.scenarios.map((s) => s.id));
  const scenarios = selectScenarios(matrix.scenarios, options.case);
  if (scenarios.length === 0) {
    throw new InputError(`--case ${options.case.join(', ')} matches no case of matrix ${matrix.name}; ids look like ${matrix.scenarios[0]?.id}`);
  }
  // Read (and validate) the recorded result before running anything, so bad input changes nothing.
  const recorded = readRecordedResult(recordedPath);
  const clients = await clientsUnderTest(options, io);

  const result = await runMatrix(matrix, scenarios, { timeoutMs: options.timeout, clients });
  const recordedCases = { ...result, cases: result.cases.filter((c) => builtIn.has(c.id)) };
  const comparison = compareWithRecorded(recorded.kind === 'found' ? recorded.result : undefined, recordedCases, {
    fullMatrix: recordedCases.cases.length === auditMatrix.scenarios.length,
    // Another release is expected to have another package label; what matters is whether it behaves
    // like the pinned client the recorded result was made with.
    ignore: otherReleases ? ['clientPackage'] : [],
  });
  if (options.update) writeFileAtomic(recordedPath, serializeResult(result));
  emit(
    {
      result,
      comparison,
      format,
      out: options.out === undefined ? undefined : resolveFrom(io, options.out, DEFAULT_OUT),
      defaultJsonPath: DEFAULT_OUT,
      recordedPath,
      updatedRecorded: options.update,
      argv,
      table: (writtenPath) =>
        renderTerminalReport({
          result,
          comparison,
          recordedPath: displayPath(recordedPath, io.cwd),
          updatedRecorded: options.update,
          writtenPath,
          paint: paintFor(io),
        }),
    },
    io,
  );
  return exitCodeFor({ result, comparison, updatedRecorded: options.update });
}

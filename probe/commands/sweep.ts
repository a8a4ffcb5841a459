// `sweep` and `merge`: the audit matrix against many client releases, with change points, a recorded
// baseline and the newest-vs-pinned gate.
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { auditMatrix } from '../../scenarios/audit.ts';
import { captureEnvironment } from '../io/environment.ts';
import { InputError } from '../core/errors.ts';
import type { LoadableRelease } from '../releases/cache.ts';
import { releaseRequests, resolveReleases } from '../releases/resolve.ts';
import { renderSweepReport } from '../render/sweep.ts';
import { readJsonFile, readRecordedResult } from '../io/json-files.ts';
import { checkOutputPath, writeFileAtomic } from '../io/files.ts';
import { guardedPaths, outputLabel } from './report.ts';
import type { ClientLine } from '../core/domain.ts';
import { serializeBaseline, serializeSweep, sweepToNdjson } from '../sweep/files.ts';
import {
  compareNewestWithPinned,
  compareWithBaseline,
  mergeIntoBaseline,
  SweepBaselineSchema,
  sweepExitCode,
  type SweepBaseline,
} from '../sweep/gates.ts';
import { releaseKey } from '../core/release.ts';
import { changePoints, summarize, SWEEP_SCHEMA_VERSION, SweepResultSchema, type ReleaseRun, type SweepResult } from '../sweep/model.ts';
import { runSweep } from '../sweep/pool.ts';
import { mergeShards, parseShard, selectShard } from '../sweep/shard.ts';
import {
  DEFAULT_RECORDED,
  DEFAULT_SWEEP_BASELINE,
  DEFAULT_SWEEP_OUT,
  displayPath,
  isCi,
  paintFor,
  PROJECT_ROOT,
  releaseContext,
  resolveFrom,
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
}

export interface SweepOptions extends SweepReportOptions {
  readonly v1?: string;
  readonly v2?: string;
  readonly prerelease: boolean;
  readonly jobs?: number;
  readonly shard?: string;
  readonly timeout: number;
}

/** No baseline file is a state (nothing recorded yet), not an error; a file that is there must be valid. */
function readBaseline(path: string): SweepBaseline | undefined {
  return existsSync(path) ? readJsonFile(path, SweepBaselineSchema, 'sweep baseline') : undefined;
}

/** "latest" as the upper end of what was asked for (`latest`, `A..latest`) asks about the newest release. */
export function gatedLines(request: SweepResult['request']): ClientLine[] {
  return (['v1', 'v2'] as const).filter((line) => /(^|\.\.)latest$/.test(request[line]?.trim() ?? ''));
}

function progress(io: CliIo) {
  const tty = io.stderrIsTty && !isCi(io.env);
  return {
    line(message: string) {
      io.stderr(tty ? `\r\u001b[K${message}` : `${message}\n`);
    },
    done() {
      if (tty) io.stderr('\r\u001b[K');
    },
  };
}

function validateReportOptions(options: SweepReportOptions, io: CliIo, shard: boolean): void {
  if (options.json && options.ndjson) throw new InputError('--json and --ndjson both print to stdout; choose one');
  if (options.update && isCi(io.env)) throw new InputError('--update rewrites the sweep baseline and is refused when CI is set');
  if (options.update && shard) throw new InputError('--update records a whole sweep; merge the shards, then update from the merge');
  if (options.update && options.baseline === undefined && !RUNS_FROM_CHECKOUT) {
    throw new InputError('--update would rewrite the sweep baseline inside the installed package; record into a file of your own with --baseline FILE');
  }
}

/**
 * Checks, before any work, the files report() writes: --out never replaces a recorded baseline or an
 * input of this run (the --baseline, --recorded and shard files); --update writes only the baseline.
 */
function checkReportOutputs(options: SweepReportOptions, io: CliIo, shardFiles: readonly string[] = []): void {
  const baselinePath = resolveFrom(io, options.baseline, DEFAULT_SWEEP_BASELINE);
  const outPath = resolveFrom(io, options.out, DEFAULT_SWEEP_OUT);
  const inputs = [
    { path: baselinePath, what: 'sweep baseline' },
    { path: resolveFrom(io, options.recorded, DEFAULT_RECORDED), what: 'recorded result' },
    ...shardFiles.map((path) => ({ path, what: 'sweep result to merge' })),
  ];
  checkOutputPath(outPath, outputLabel(outPath, options.out ? '--out' : undefined), guardedPaths(inputs));
  if (options.update) {
    checkOutputPath(baselinePath, `${baselinePath} (--update)`, guardedPaths(inputs, { path: baselinePath, kind: 'sweep' }));
  }
}

/** Gates, files and output shared by `sweep` and `merge`. Inputs were validated before anything ran. */
function report(result: SweepResult, options: SweepReportOptions, io: CliIo, inputs: { baseline: SweepBaseline | undefined; recordedPath: string }): number {
  const baselinePath = resolveFrom(io, options.baseline, DEFAULT_SWEEP_BASELINE);
  const outPath = resolveFrom(io, options.out, DEFAULT_SWEEP_OUT);
  // A shard knows only part of the sweep: its gates run on the merge.
  const gated = result.shard ? [] : gatedLines(result.request);
  const recorded = gated.length > 0 ? readRecordedResult(inputs.recordedPath) : undefined;
  if (recorded?.kind === 'missing') throw new InputError(`${inputs.recordedPath}: no recorded audit result to compare the newest releases with`);
  const pinned = recorded?.kind === 'found' ? compareNewestWithPinned(recorded.result, result, gated) : [];
  const baseline = result.shard || !inputs.baseline ? undefined : compareWithBaseline(inputs.baseline, result);

  writeFileAtomic(outPath, serializeSweep(result), outputLabel(outPath, options.out ? '--out' : undefined));
  if (options.update) writeFileAtomic(baselinePath, serializeBaseline(mergeIntoBaseline(inputs.baseline, result)), `${baselinePath} (--update)`);

  if (options.json) io.stdout(serializeSweep(result));
  else if (options.ndjson) io.stdout(sweepToNdjson(result));
  else {
    io.stdout(
      renderSweepReport({
        result,
        baseline: result.shard ? [] : baseline,
        baselinePath: displayPath(baselinePath, io.cwd),
        updatedBaseline: options.update,
        pinned,
        writtenPath: displayPath(outPath, io.cwd),
        paint: paintFor(io),
      }),
    );
  }
  return sweepExitCode({ baseline: baseline ?? [], pinned, updatedBaseline: options.update });
}

export async function runSweepCommand(options: SweepOptions, io: CliIo): Promise<number> {
  const shard = options.shard === undefined ? undefined : parseShard(options.shard);
  validateReportOptions(options, io, shard !== undefined);
  checkReportOutputs(options, io);
  const requests = releaseRequests(options);
  if (requests.length === 0) throw new InputError('sweep needs --v1 and/or --v2 (for example --v1 1.10.0..latest)');
  const baseline = readBaseline(resolveFrom(io, options.baseline, DEFAULT_SWEEP_BASELINE));
  const recordedPath = resolveFrom(io, options.recorded, DEFAULT_RECORDED);
  readRecordedResult(recordedPath); // validated up front: a bad file must stop the run before it starts

  const status = progress(io);
  const releases: LoadableRelease[] = await resolveReleases(
    requests,
    releaseContext(io, options.prerelease, (count) => status.line(`installing ${count} client release${count === 1 ? '' : 's'} with one npm install…`)),
  );
  const plan = releases.map(releaseKey);
  const mine = selectShard(releases, shard);
  const environment = captureEnvironment();
  const runs: ReleaseRun[] = await runSweep(mine, {
    matrix: auditMatrix,
    environment,
    timeoutMs: options.timeout,
    jobs: options.jobs,
    workerUrl: pathToFileURL(join(PROJECT_ROOT, 'dist', 'sweep-worker.mjs')),
    onRelease: (run, done, total, ms) =>
      status.line(`[${done}/${total}] ${releaseKey(run.release)} ${run.status === 'ran' ? `ran ${run.cases.length} cases` : `failed (${run.stage})`} in ${ms} ms`),
  });
  status.done();
  const result: SweepResult = {
    schemaVersion: SWEEP_SCHEMA_VERSION,
    kind: 'sweep',
    matrix: { name: auditMatrix.name, title: auditMatrix.title, source: auditMatrix.source },
    environment,
    request: { v1: options.v1 ?? null, v2: options.v2 ?? null, prerelease: options.prerelease },
    plan,
    ...(shard && { shard }),
    releases: runs,
    changePoints: changePoints(runs),
    summary: summarize(runs),
  };
  return report(result, options, io, { baseline, recordedPath });
}

export async function runMergeCommand(files: readonly string[], options: SweepReportOptions, io: CliIo): Promise<number> {
  validateReportOptions(options, io, false);
  const paths = files.map((file) => resolveFrom(io, file, file));
  checkReportOutputs(options, io, paths);
  const parts = paths.map((path) => ({ path: displayPath(path, io.cwd), result: readJsonFile(path, SweepResultSchema, 'sweep result') }));
  const baseline = readBaseline(resolveFrom(io, options.baseline, DEFAULT_SWEEP_BASELINE));
  const recordedPath = resolveFrom(io, options.recorded, DEFAULT_RECORDED);
  return report(mergeShards(parts), options, io, { baseline, recordedPath });
}

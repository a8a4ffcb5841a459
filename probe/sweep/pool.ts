// Runs a matrix against many client releases: one worker thread per release (its own module graph), as
// many at once as there are cores. A release that cannot load, throws or hangs becomes a `failed` record
// and the sweep goes on.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Environment, Matrix } from '../core/domain.ts';
import type { LoadableRelease } from '../releases/cache.ts';
import type { WorkerInput, WorkerOutput } from './protocol.ts';
import type { ReleaseRun } from './model.ts';
import { scenariosFor } from './side.ts';

export interface SweepRunOptions {
  readonly matrix: Matrix;
  readonly environment: Environment;
  readonly timeoutMs: number;
  /** Workers at once; defaults to the number of cores. */
  readonly jobs?: number;
  /** The built worker module (dist/sweep-worker.mjs). */
  readonly workerUrl: URL;
  readonly onRelease?: (run: ReleaseRun, done: number, total: number, ms: number) => void;
}

function identity(release: LoadableRelease): ReleaseRun['release'] {
  const { side, line, packageName, version, label, source, integrity } = release;
  return { ...(side && { side }), line, packageName, version, label, source, integrity };
}

function runOne(release: LoadableRelease, options: SweepRunOptions): Promise<ReleaseRun> {
  const scenarios = scenariosFor(options.matrix.scenarios, release);
  const input: WorkerInput = { release, scenarios, timeoutMs: options.timeoutMs, environment: options.environment };
  // Every case has its own limit; this only catches a release that wedges the worker outside a case.
  // (A case may have a longer limit of its own: the extended matrix's waiting cases.)
  const limitMs = scenarios.reduce((sum, s) => sum + (s.timeoutMs ?? options.timeoutMs), options.timeoutMs * 2) + 30_000;
  return new Promise((resolve) => {
    const worker = new Worker(options.workerUrl, { workerData: input, stdout: true, stderr: true });
    let settled = false;
    const finish = (run: ReleaseRun) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      resolve(run);
    };
    const failed = (stage: 'load' | 'run' | 'timeout', name: string, message: string) =>
      finish({ status: 'failed', release: identity(release), stage, error: { name, code: null, message } });
    const timer = setTimeout(() => failed('timeout', 'Timeout', `no answer from the release's worker within ${limitMs} ms`), limitMs);
    worker.on('message', (output: WorkerOutput) => {
      if (output.kind === 'ran') finish({ status: 'ran', release: identity(release), cases: output.cases });
      else finish({ status: 'failed', release: identity(release), stage: output.stage, error: output.error });
    });
    worker.on('error', (error) => failed('run', error.name, error.message));
    worker.on('exit', (code) => failed('run', 'WorkerExit', `the release's worker exited (code ${code}) without a result`));
  });
}

/** Runs every release; results come back in the order of `releases`, whatever order they finished in. */
export async function runSweep(releases: readonly LoadableRelease[], options: SweepRunOptions): Promise<ReleaseRun[]> {
  const jobs = Math.max(1, Math.min(options.jobs ?? availableParallelism(), releases.length));
  const results: ReleaseRun[] = new Array(releases.length);
  let next = 0;
  let done = 0;
  // A small hand-written pool: one task per worker slot pulling the next release; a library would add a
  // dependency for ten lines, and each release needs a fresh worker anyway (no reuse to manage).
  const slot = async () => {
    while (next < releases.length) {
      const index = next++;
      const started = Date.now();
      const run = await runOne(releases[index]!, options);
      results[index] = run;
      options.onRelease?.(run, ++done, releases.length, Date.now() - started);
    }
  };
  await Promise.all(Array.from({ length: jobs }, slot));
  return results;
}

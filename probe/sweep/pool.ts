// Runs a matrix against many client releases in worker threads, as many at once as there are cores. A
// worker serves release after release (worker.ts: each release's client loads by its own path, so its
// modules are its own), which saves a thread start and a load of the harness per release. A release that
// cannot load, throws or hangs becomes a `failed` record and the sweep goes on; a worker that dies or
// hangs is replaced by a fresh one for the next release.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Environment, ErrorInfo, Matrix } from '../core/domain.ts';
import { timerDelay } from '../core/timer.ts';
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
  /** Each release as it finishes (in completion order); `index` is its place in `releases`. */
  readonly onRelease?: (run: ReleaseRun, done: number, total: number, ms: number, index: number) => void;
}

function identity(release: LoadableRelease): ReleaseRun['release'] {
  const { side, line, packageName, version, label, source, integrity } = release;
  return { ...(side && { side }), line, packageName, version, label, source, integrity };
}

type Outcome = WorkerOutput | { readonly kind: 'failed'; readonly stage: 'run' | 'timeout'; readonly error: ErrorInfo };

// Workers started before the releases are known (startSweepWorkersEarly), for the pool to adopt.
const early: Worker[] = [];
/** Where bin/launch.mjs leaves the sweep worker it started (bin/launch-threads.mjs). */
const LAUNCH_SWEEP_WORKER = Symbol.for('mcp-sdk-probe.launch-sweep-worker');

/**
 * Starts `count` workers now, so they load the harness and the pinned fixture server while the caller
 * resolves the releases; runSweep adopts them. Until then they hold nothing open: a run that stops
 * before sweeping (bad input) exits as if they were not there.
 */
export function startSweepWorkersEarly(workerUrl: URL, count: number): void {
  // bin/launch.mjs may have started the first one already, on the same bundle, before this thread loaded.
  const holder = globalThis as { [LAUNCH_SWEEP_WORKER]?: { worker: Worker; exited: boolean } };
  const launched = holder[LAUNCH_SWEEP_WORKER];
  delete holder[LAUNCH_SWEEP_WORKER];
  if (launched && count <= 0) void launched.worker.terminate();
  if (launched && !launched.exited && count > 0) {
    launched.worker.once('exit', () => {
      if (early.includes(launched.worker)) early.splice(early.indexOf(launched.worker), 1);
    });
    early.push(launched.worker);
  }
  for (let i = early.length; i < count; i++) {
    const worker = new Worker(workerUrl, { stdout: true, stderr: true });
    worker.unref();
    worker.on('error', () => undefined); // it then exits, below; a worker not yet adopted has no release to fail
    worker.once('exit', () => {
      if (early.includes(worker)) early.splice(early.indexOf(worker), 1);
    });
    early.push(worker);
  }
}

const lost = (stage: 'run' | 'timeout', name: string, message: string): Outcome => ({ kind: 'failed', stage, error: { name, code: null, message } });

/** One slot of the pool: a worker kept across releases, replaced when it dies or has to be stopped. */
function releaseThread(workerUrl: URL) {
  let worker: Worker | undefined;
  let answer: ((outcome: Outcome) => void) | undefined;
  const settle = (outcome: Outcome) => {
    const waiting = answer;
    answer = undefined;
    waiting?.(outcome);
  };
  const start = () => {
    const started = early.shift() ?? new Worker(workerUrl, { stdout: true, stderr: true });
    started.ref();
    // Events of a worker this slot has let go (stopped at a limit) are about no release any more.
    const current = () => worker === started;
    started.on('message', (output: WorkerOutput) => {
      if (current()) settle(output);
    });
    started.on('error', (error) => {
      if (!current()) return;
      worker = undefined;
      void started.terminate();
      settle(lost('run', error.name, error.message));
    });
    started.on('exit', (code) => {
      if (!current()) return;
      worker = undefined;
      settle(lost('run', 'WorkerExit', `the release's worker exited (code ${code}) without a result`));
    });
    return started;
  };
  return {
    run(input: WorkerInput, limitMs: number): Promise<Outcome> {
      const thread = (worker ??= start());
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          worker = undefined;
          void thread.terminate();
          settle(lost('timeout', 'Timeout', `no answer from the release's worker within ${limitMs} ms`));
        }, timerDelay(limitMs));
        answer = (outcome) => {
          clearTimeout(timer);
          resolve(outcome);
        };
        thread.postMessage(input);
      });
    },
    async close(): Promise<void> {
      const thread = worker;
      worker = undefined;
      await thread?.terminate();
    },
  };
}

async function runOne(release: LoadableRelease, thread: ReturnType<typeof releaseThread>, options: SweepRunOptions): Promise<ReleaseRun> {
  const scenarios = scenariosFor(options.matrix.scenarios, release);
  const input: WorkerInput = { release, scenarios, timeoutMs: options.timeoutMs, environment: options.environment };
  // Every case has its own limit; this only catches a release that wedges the worker outside a case.
  // (A case may have a longer limit of its own: the extended matrix's waiting cases.)
  const limitMs = scenarios.reduce((sum, s) => sum + (s.timeoutMs ?? options.timeoutMs), options.timeoutMs * 2) + 30_000;
  const output = await thread.run(input, limitMs);
  return output.kind === 'ran'
    ? { status: 'ran', release: identity(release), cases: output.cases }
    : { status: 'failed', release: identity(release), stage: output.stage, error: output.error };
}

/**
 * Which release each worker takes next: neighbours in the release order, because neighbouring releases
 * share dependencies (zod, ajv, ... at the same versions, deduplicated in the release cache's one
 * install) and a worker loads each dependency once for all its releases. Worker k starts at the k-th of
 * `workers` equal stretches and goes on from there; one that meets a release already taken (or the end)
 * goes to the middle of the longest stretch nobody has taken, so the worker on that stretch keeps its
 * half. Handing releases out in one order instead made both workers of a 65-release sweep load nearly
 * every dependency (9.4 s of worker time against 6.5 s on one worker; issue 11).
 */
export function releaseScheduler(count: number, workers: number): (worker: number) => number | undefined {
  const taken = new Array<boolean>(count).fill(false);
  const cursors = Array.from({ length: workers }, (_, k) => Math.floor((k * count) / workers));
  const longestUntaken = (): number | undefined => {
    let best: { start: number; length: number } | undefined;
    for (let i = 0; i < count; ) {
      if (taken[i]) {
        i += 1;
        continue;
      }
      let end = i;
      while (end < count && !taken[end]) end += 1;
      if (!best || end - i > best.length) best = { start: i, length: end - i };
      i = end;
    }
    return best && best.start + Math.floor(best.length / 2);
  };
  return (worker) => {
    let at: number | undefined = cursors[worker]!;
    if (at >= count || taken[at]) at = longestUntaken();
    if (at === undefined) return undefined;
    taken[at] = true;
    cursors[worker] = at + 1;
    return at;
  };
}

/** Runs every release; results come back in the order of `releases`, whatever order they finished in. */
export async function runSweep(releases: readonly LoadableRelease[], options: SweepRunOptions): Promise<ReleaseRun[]> {
  const jobs = Math.max(1, Math.min(options.jobs ?? availableParallelism(), releases.length));
  const results: ReleaseRun[] = new Array(releases.length);
  const nextFor = releaseScheduler(releases.length, jobs);
  let done = 0;
  // A small hand-written pool: one task per slot pulling its next release into the slot's worker; a
  // library would add a dependency for what is a loop over a scheduler.
  const slot = async (_: unknown, worker: number) => {
    const thread = releaseThread(options.workerUrl);
    try {
      for (let index = nextFor(worker); index !== undefined; index = nextFor(worker)) {
        const started = Date.now();
        const run = await runOne(releases[index]!, thread, options);
        results[index] = run;
        options.onRelease?.(run, ++done, releases.length, Date.now() - started, index);
      }
    } finally {
      await thread.close();
    }
  };
  await Promise.all(Array.from({ length: jobs }, slot));
  stopEarlyWorkers();
  return results;
}

/** Stops the early workers no sweep adopted (more than the sweep needed, or the run stopped before it). */
export function stopEarlyWorkers(): void {
  for (const unused of early.splice(0)) void unused.terminate();
}

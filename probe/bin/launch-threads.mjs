// The threads bin/launch.mjs starts before anything else: a case thread for the case pool to adopt
// (probe/engine/pool.ts takeLaunchThread), or a sweep worker for the sweep's pool (probe/sweep/pool.ts
// startSweepWorkersEarly). Plain JavaScript beside launch.mjs: it runs before the bundle.
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/** Where the pool looks for it. */
export const LAUNCH_THREAD = Symbol.for('mcp-sdk-probe.launch-thread');
/** Same young generation as probe/engine/pool.ts YOUNG_GENERATION_MB (the pool adopts only a thread that has it). */
export const YOUNG_GENERATION_MB = 4;
/** The status board's size (probe/engine/pool-protocol.ts BOARD_BYTES). */
export const BOARD_BYTES = 4 * Int32Array.BYTES_PER_ELEMENT;

/**
 * Whether a command line's first work is running cases in the case pool: the audit, whatever its options,
 * and replay. Not --help or --version, and not the other commands (sweep, merge, explore).
 */
export function runsCases(args) {
  if (args.some((arg) => ['--help', '-h', '--version', '-V'].includes(arg))) return false;
  return args[0] === undefined || args[0].startsWith('-') || args[0] === 'replay';
}

/**
 * A case thread on `bundle` (dist/case-worker.mjs) with no run yet: it evaluates the pinned SDKs and
 * waits for its run's `configure`. Unref'd: unadopted (bad input, an early exit), it ends with the process.
 */
export function startLaunchThread(bundle) {
  const board = new SharedArrayBuffer(BOARD_BYTES);
  // No case started (probe/engine/pool-protocol.ts newBoard).
  new Int32Array(board)[0] = -1;
  const worker = new Worker(pathToFileURL(bundle), { workerData: { board }, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
  const thread = { worker, board, exited: false };
  worker.unref();
  // Until adopted, a failure has no run to report to: the pool then starts a thread of its own.
  worker.on('error', () => {});
  worker.once('exit', () => {
    thread.exited = true;
  });
  return thread;
}

/** Where the sweep's pool looks for the sweep worker. */
export const LAUNCH_SWEEP_WORKER = Symbol.for('mcp-sdk-probe.launch-sweep-worker');

/** Whether a command line is a sweep (whose first work is loading releases in sweep workers). */
export function runsSweep(args) {
  return args[0] === 'sweep' && !args.some((arg) => ['--help', '-h'].includes(arg));
}

/**
 * A sweep worker on `bundle` (dist/sweep-worker.mjs), made as probe/sweep/pool.ts makes them (its output
 * captured), unref'd, failures ignored until adopted.
 */
export function startLaunchSweepWorker(bundle) {
  const worker = new Worker(pathToFileURL(bundle), { stdout: true, stderr: true });
  const thread = { worker, exited: false };
  worker.unref();
  worker.on('error', () => {});
  worker.once('exit', () => {
    thread.exited = true;
  });
  return thread;
}

// The case pool: cases run in a few worker threads (one per core by default), each thread loading the
// clients once and running cases one after another with a fresh server and client per case. A case has
// a hard deadline kept by this thread: a client stuck in its own code (a validator's catastrophic
// backtracking blocks its thread, so the case's own timer cannot fire) is recorded as a timeout at the
// stage it had reached, and its thread is stopped and replaced; a thread that dies is recorded as a crash
// of the case it was running. The run goes on either way, and records come back in scenario order, so
// the result is the same whatever the scheduling.
import { availableParallelism, homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ClientModuleRef } from '../clients/load.ts';
import { CLIENT_PACKAGES } from '../clients/packages.ts';
import type { CaseRecord, ClientLine, Environment, Finding, Observation, Scenario, ServerSent } from '../core/domain.ts';
import { givenResult, transportOf } from '../core/fixture.ts';
import { checksNotFinished } from '../core/lint.ts';
import { clientPackageOf } from '../core/release.ts';
import { timerDelay } from '../core/timer.ts';
import { PROJECT_ROOT } from '../io/project.ts';
import { BEAT_MS, boardBeat, boardMovedOn, boardRead, newBoard, type CaseWorkerData, type CaseWorkerInput, type FromCaseWorker, type ToCaseWorker } from './pool-protocol.ts';
import { recordCase } from './record.ts';

/** The worker module, as bin/build.mjs bundles it. */
export const CASE_WORKER = pathToFileURL(join(PROJECT_ROOT, 'dist', 'case-worker.mjs'));

/**
 * How long past a case's own limit the pool waits before stopping a thread whose event loop still turns
 * (its heartbeat goes on: pool-protocol.ts BEAT_MS). Within it, the case's own timer (engine/observe.ts)
 * records the timeout with everything it knows, so a slow but healthy thread decides its own record.
 */
const GRACE_MS = 1000;

/**
 * A thread whose heartbeat stands still this long once a case is past its limit is stuck (its own timer
 * cannot fire) and is stopped then, not after the grace: a client blocked in its validator is recorded
 * about when its limit ends (issue 10), not a second later. Three beats: a loop that turns misses none.
 */
const BLOCKED_MS = 3 * BEAT_MS;

/**
 * The young generation of a case thread's heap, in MB. A case makes only short-lived garbage (a fixture,
 * a client, their messages), which V8 would otherwise let grow to 16 MB semi-spaces in each thread before
 * collecting: on a 10,000-case run that slack was ~30 MB of the run's peak memory, with no time saved
 * (`npm run bench -- --only scale`; issue 10: peak memory within 1.2x of a bare loop's).
 */
const YOUNG_GENERATION_MB = 4;

/**
 * A case thread bin/launch.mjs started before the command line was parsed (it evaluates the pinned SDKs
 * while this thread loads), waiting for `configure`; the first thread a run asks for adopts it. launch.mjs
 * sets the same young generation, checked here so a thread started otherwise is not adopted.
 */
interface LaunchThread {
  readonly worker: Worker;
  readonly board: SharedArrayBuffer;
  /** Set by launch.mjs when the thread ends before it is adopted. */
  readonly exited: boolean;
}
const LAUNCH_THREAD = Symbol.for('mcp-sdk-probe.launch-thread');

function takeLaunchThread(): LaunchThread | undefined {
  const holder = globalThis as { [LAUNCH_THREAD]?: LaunchThread };
  const launched = holder[LAUNCH_THREAD];
  delete holder[LAUNCH_THREAD];
  if (!launched || launched.exited) return undefined;
  if (launched.worker.resourceLimits?.maxYoungGenerationSizeMb !== YOUNG_GENERATION_MB) {
    void launched.worker.terminate();
    return undefined;
  }
  return launched;
}

/**
 * Cases handed to a thread ahead of the one it runs. With one, a thread still waited ~0.1 ms per case for
 * the next (the main thread journals each case before handing out the next); the queue lets it go on.
 * A thread that is stopped hands its queued cases back (they run first, on another thread).
 */
const QUEUE_DEPTH = 2;

/** How long a new thread may take to load its clients before the run fails (they load in about 1 s). */
const LOAD_LIMIT_MS = 120_000;

/**
 * A thread's start-up (loading both SDK lines) costs about as much as running this many in-memory cases,
 * so by default a run gets one thread per this many cases, up to one per core: the 13-case audit runs
 * in one thread, `--matrix all` in two (measured with `npm run bench`).
 */
export const CASES_PER_THREAD = 32;

/** The default number of threads for a run of `cases` cases on `cores` cores. */
export function defaultJobs(cases: number, cores: number): number {
  return Math.max(1, Math.min(cores, Math.ceil(cases / CASES_PER_THREAD)));
}

export interface PoolOptions {
  /** Worker threads at once (at most one per case); by default `defaultJobs`. */
  readonly jobs?: number;
  readonly timeoutMs: number;
  readonly environment: Environment;
  /** Releases to run instead of the pinned clients, per line. */
  readonly clients?: Partial<Record<ClientLine, ClientModuleRef>>;
  readonly workerUrl?: URL;
  /** Extra data for a worker module other than CASE_WORKER (tests wrap the real worker). */
  readonly workerData?: Record<string, unknown>;
  /** Each case once it is over (its record and its rule findings), in the order cases finish. */
  readonly onCaseDone?: (index: number, record: CaseRecord, lint: Finding[] | null) => void;
  /**
   * false: a record is dropped once onCaseDone has it, and the run's `records` come back empty (the
   * caller keeps what it needs of each; a long run's memory does not grow with its records).
   */
  readonly retain?: boolean;
  /** GRACE_MS, unless a test needs another. */
  readonly graceMs?: number;
}

interface Running {
  readonly index: number;
  /** What the server sent, when the thread posted more than a kind (see pool-protocol.ts BOARD). */
  sent: ServerSent | undefined;
  deadline: NodeJS.Timeout;
  cleanup?: NodeJS.Timeout;
}

export interface PoolRun {
  /** In scenario order (none when the run was not to retain them); the rule findings went to onCaseDone. */
  readonly records: CaseRecord[];
}

/**
 * What a stopped thread's case sent, when no report came: in-process fixtures report synchronously with
 * the send, so no report means nothing went out; the stdio child reports on its stderr, which the
 * stopped thread may not have read.
 */
function unreported(scenario: Scenario): ServerSent {
  return scenario.transport === 'stdio' ? 'unknown' : 'nothing';
}

/**
 * The order cases are handed to threads: the slow ones first (a stdio case starts a Node child, ~0.3-1 s;
 * a loopback HTTP case binds a port), then the in-memory ones in scenario order, so the run does not end
 * with one thread on a slow case while the others idle (longest first). Only the order of work changes:
 * each record keeps its scenario's place, so the result is the same whatever the order.
 */
export function dispatchOrder(scenarios: readonly Pick<Scenario, 'server' | 'transport'>[]): number[] {
  const weight = (scenario: Pick<Scenario, 'server' | 'transport'>) => ({ stdio: 0, http: 1 })[transportOf(scenario) as 'stdio' | 'http'] ?? 2;
  return scenarios.map((_, index) => index).sort((a, b) => weight(scenarios[a]!) - weight(scenarios[b]!) || a - b);
}

/**
 * Cases that spend their time waiting, not computing: the server never answers the call in a way the
 * client can match (it hangs, or answers with a malformed message or another id), so only a limit ends
 * it (the client's own, or the probe's).
 */
export function waitsForLimit(scenario: Pick<Scenario, 'server'>): boolean {
  return scenario.server.kind === 'hang' || scenario.server.kind === 'malformed' || scenario.server.kind === 'wrong-id';
}

/**
 * Who takes what: the first thread takes the waiting cases first (`waitsForLimit`), the others the rest in
 * `dispatchOrder`; each takes from the other list when its own is empty. Handed out in one order, the
 * extended matrix's twelve waiting cases came last and kept both threads idle at once for 2 s of a 5 s
 * run; on one thread, its waits overlap the other threads' work (issue 10: `--matrix all` on both cores).
 */
export function dispatchPlan(scenarios: readonly Pick<Scenario, 'server' | 'transport'>[]): { waiting: number[]; working: number[] } {
  const order = dispatchOrder(scenarios);
  return { waiting: order.filter((i) => waitsForLimit(scenarios[i]!)), working: order.filter((i) => !waitsForLimit(scenarios[i]!)) };
}

/** An error message without this machine's paths (records are read on other machines). */
function portableMessage(message: string): string {
  return message.split(PROJECT_ROOT).join('<project>').split(homedir()).join('~');
}

/**
 * Threads left ready by earlier runs in this process (the parts of `--matrix all`, a test suite's many
 * runs), by what they were started with. Unref'd while idle, so they never keep the process alive.
 */
const idle = new Map<string, Worker[]>();

function threadKey(options: Pick<PoolOptions, 'workerUrl' | 'workerData'>, input: CaseWorkerInput): string {
  return JSON.stringify([String(options.workerUrl ?? CASE_WORKER), options.workerData ?? null, input]);
}

/** Each thread's start-up: settles when it has loaded its clients (or could not). */
const readiness = new WeakMap<Worker, Promise<void>>();
/** Each thread's status board (pool-protocol.ts). */
const boards = new WeakMap<Worker, Int32Array>();

function newThread(options: Pick<PoolOptions, 'workerUrl' | 'workerData'>, input: CaseWorkerInput, key: string): Worker {
  const launched = options.workerUrl === undefined && options.workerData === undefined ? takeLaunchThread() : undefined;
  const board = launched?.board ?? newBoard();
  // The worker drops what a client or server prints in it (case-worker.ts): no output streams to keep
  // open here, so an idle, unref'd thread holds nothing that keeps the process alive.
  const data: CaseWorkerData = { board, input };
  const worker =
    launched?.worker ??
    new Worker(options.workerUrl ?? CASE_WORKER, {
      workerData: { ...options.workerData, ...data },
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
  boards.set(worker, new Int32Array(board));
  if (launched) worker.postMessage({ kind: 'configure', input } satisfies ToCaseWorker);
  const ready = new Promise<void>((resolve, reject) => {
    const settle = (error?: Error) => {
      worker.off('message', first);
      worker.off('exit', exited);
      clearTimeout(limit);
      if (error) {
        void worker.terminate();
        reject(error);
      } else resolve();
    };
    const first = (message: FromCaseWorker) => {
      if (message.kind === 'ready') settle();
      else if (message.kind === 'load-failed') settle(new Error(`the case runner could not load the clients: ${message.error.name}: ${message.error.message}`));
    };
    const exited = (code: number) => settle(new Error(`the case runner's thread exited (code ${code}) before it had loaded the clients`));
    // Loading both SDK lines takes a second or two; a thread still loading after this is not going to.
    const limit = setTimeout(() => settle(new Error(`the case runner's thread did not load the clients within ${LOAD_LIMIT_MS / 1000} s`)), LOAD_LIMIT_MS);
    limit.unref();
    worker.on('message', first);
    worker.on('exit', exited);
  });
  // Nobody may be waiting yet (a thread started ahead of its run); the run that takes it sees the failure.
  ready.catch(() => {});
  readiness.set(worker, ready);
  // An idle thread that ends is forgotten; its error has no run to report to.
  worker.on('error', () => {});
  worker.on('exit', () => {
    const free = idle.get(key);
    if (free?.includes(worker)) free.splice(free.indexOf(worker), 1);
  });
  return worker;
}

/**
 * Starts threads for a run that is about to come (one, or `count`), so their clients load while the
 * command still reads its inputs; the run takes them if it asks for the same clients (else they end with
 * the process, unused).
 */
export function startCaseThreadEarly(options: Pick<PoolOptions, 'environment' | 'clients'>, count = 1): void {
  const input: CaseWorkerInput = { environment: options.environment, clients: options.clients ?? {} };
  const key = threadKey({}, input);
  for (let i = 0; i < count; i++) {
    const worker = newThread({}, input, key);
    worker.unref();
    let free = idle.get(key);
    if (!free) idle.set(key, (free = []));
    free.push(worker);
  }
}

export function runCasesInPool(scenarios: readonly Scenario[], options: PoolOptions): Promise<PoolRun> {
  // undefined: not settled yet; null: settled, reported and dropped (a run that does not retain records).
  const records: (CaseRecord | null | undefined)[] = new Array(scenarios.length);
  const retain = options.retain ?? true;
  // The rule findings a thread reported for a case, until the case is reported over. Without a report
  // (a stopped thread never sends one) its checks count as not finished.
  const lints = new Map<number, Finding[] | null>();
  const input: CaseWorkerInput = { environment: options.environment, clients: options.clients ?? {} };
  const clientPackage = (line: ClientLine) => {
    const ref = options.clients?.[line];
    return ref ? clientPackageOf(ref.packageName, ref.label) : clientPackageOf(CLIENT_PACKAGES[line], options.environment.packages[CLIENT_PACKAGES[line]] ?? 'unknown');
  };
  const { waiting, working } = dispatchPlan(scenarios);
  // Cases handed to a thread that was stopped before it started them: run first, on another thread.
  const handedBack: number[] = [];
  const take = (prefersWaiting: boolean): number | undefined => {
    const [first, second] = prefersWaiting ? [waiting, working] : [working, waiting];
    return handedBack.shift() ?? first.shift() ?? second.shift();
  };
  const workLeft = () => handedBack.length > 0 || waiting.length > 0 || working.length > 0;
  let settled = 0;
  const workers = new Set<Worker>();
  const detachers = new Map<Worker, () => void>();
  const limitOf = (index: number) => scenarios[index]!.timeoutMs ?? options.timeoutMs;
  const graceMs = options.graceMs ?? GRACE_MS;

  return new Promise((resolve, reject) => {
    let failed = false;
    const finishIfDone = () => {
      if (failed || settled < scenarios.length || workers.size > 0) return;
      resolve({ records: retain ? (records as CaseRecord[]) : [] });
    };
    const settle = (index: number, observed: Observation, packageName: string) => {
      if (records[index] !== undefined) return;
      records[index] = recordCase(scenarios[index]!, packageName, observed);
      settled += 1;
    };
    const reported = new Set<number>();
    /** The case is over: its record is settled and its findings are what they will be. */
    const over = (index: number) => {
      const record = records[index];
      if (!record || reported.has(index)) return;
      reported.add(index);
      const lint = lints.has(index) ? lints.get(index)! : givenResult(scenarios[index]!.server) ? checksNotFinished() : null;
      lints.delete(index);
      options.onCaseDone?.(index, record, lint);
      if (!retain) records[index] = null;
    };

    /** `slot` 0 takes the waiting cases first (`dispatchPlan`); a thread replaced keeps its slot. */
    const start = (slot: number) => {
      const key = threadKey(options, input);
      const reused = idle.get(key)?.pop();
      const worker = reused ?? newThread(options, input, key);
      const board = boards.get(worker)!;
      worker.ref();
      workers.add(worker);
      // The case the thread is running (as far as this thread knows: since the previous one closed), and
      // the one handed to it to run next.
      let running: Running | undefined;
      const queued: number[] = [];
      let stopped = false;
      // A thread that never loaded is not replaced: its start-up failure fails the run (see `readiness`).
      let loaded = false;

      const detach = () => {
        stopped = true;
        if (running) {
          clearTimeout(running.deadline);
          clearTimeout(running.cleanup);
        }
        running = undefined;
        workers.delete(worker);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
      /** A thread that cannot be trusted any more (stuck, or dead): stopped, and another started if work is left. */
      const stop = () => {
        if (stopped) return;
        if (running) over(running.index);
        // The queued cases never started here: another thread runs them.
        handedBack.unshift(...queued.splice(0));
        detach();
        void worker.terminate();
        if (loaded && workLeft() && !failed) start(slot);
        finishIfDone();
      };
      /** A healthy thread with nothing left to do: kept for the next run in this process. */
      const retire = () => {
        if (stopped) return;
        detach();
        worker.unref();
        let free = idle.get(key);
        if (!free) idle.set(key, (free = []));
        free.push(worker);
        finishIfDone();
      };

      const hand = (index: number) => {
        const message: ToCaseWorker = { kind: 'case', index, scenario: scenarios[index]!, timeoutMs: options.timeoutMs };
        worker.postMessage(message);
      };
      /**
       * A timer for case `index` that stops the thread unless the thread has moved on to a later case
       * (then this case's report is on its way, and the timer looks again after the grace).
       */
      const unlessMovedOn = (index: number, ms: number, timer: 'deadline' | 'cleanup', onStuck: () => void): NodeJS.Timeout =>
        setTimeout(() => {
          if (running?.index !== index) return;
          if (boardMovedOn(board, index)) {
            running[timer] = unlessMovedOn(index, graceMs, timer, onStuck);
            return;
          }
          onStuck();
          stop();
        }, timerDelay(ms));
      /**
       * The watch over case `index` (its run, or its cleanup once observed): by `checkMs` it should be over.
       * Then a thread whose heartbeat stands still for BLOCKED_MS is stuck and is stopped; one whose loop
       * turns keeps its chance to end the case itself until `stopMs` (unlessMovedOn, from then on).
       */
      const watch = (index: number, checkMs: number, stopMs: number, timer: 'deadline' | 'cleanup', onStuck: () => void): NodeJS.Timeout =>
        setTimeout(() => sampleBeat(index, stopMs - checkMs, timer, onStuck), timerDelay(checkMs));
      /** What this timer watches for is over: the case's observation came (deadline), or the case closed. */
      const watched = (index: number, timer: 'deadline' | 'cleanup') => running?.index === index && (timer === 'cleanup' || records[index] === undefined);
      const sampleBeat = (index: number, leftMs: number, timer: 'deadline' | 'cleanup', onStuck: () => void) => {
        if (!watched(index, timer)) return;
        if (boardMovedOn(board, index)) {
          running![timer] = unlessMovedOn(index, graceMs, timer, onStuck);
          return;
        }
        const beat = boardBeat(board);
        const sampledAt = performance.now();
        running![timer] = setTimeout(
          // In the check phase, after the thread's messages already queued: an observation it posted just
          // before it blocked (in its rule checks) is taken first.
          () =>
            setImmediate(() => {
              if (!watched(index, timer)) return;
              const waited = performance.now() - sampledAt;
              if (boardMovedOn(board, index) || boardBeat(board) !== beat) {
                running![timer] = unlessMovedOn(index, Math.max(0, leftMs - waited), timer, onStuck);
              } else if (waited > 2 * BLOCKED_MS) {
                // This thread came late (busy, or the process was paused): the beat had no fair chance. Again.
                sampleBeat(index, leftMs - waited, timer, onStuck);
              } else {
                onStuck();
                stop();
              }
            }),
          BLOCKED_MS,
        );
      };
      /** The case the thread runs now: its deadline starts (a little after the thread started it, never before). */
      const begin = (index: number) => {
        const scenario = scenarios[index]!;
        const limitMs = limitOf(index);
        // The case's thread did not report within its limit (and, its loop turning, the grace): record what
        // is known, stop it.
        const deadline = watch(index, limitMs, limitMs + graceMs, 'deadline', () => {
          const { stage, sent } = boardRead(board, index);
          settle(index, { outcome: 'timeout', stage, afterMs: limitMs, serverSent: sentOf(running!, sent, scenario) }, clientPackage(scenario.client));
        });
        running = { index, sent: undefined, deadline };
      };
      /** Keeps the thread busy: a case running and, while work is left, QUEUE_DEPTH queued behind it. */
      const dispatch = () => {
        if (failed) return retire();
        if (!running) {
          const index = take(slot === 0);
          if (index === undefined) return retire();
          hand(index);
          begin(index);
        }
        while (queued.length < QUEUE_DEPTH) {
          const index = take(slot === 0);
          if (index === undefined) break;
          queued.push(index);
          hand(index);
        }
      };

      const onMessage = (message: FromCaseWorker) => {
        if (stopped) return;
        switch (message.kind) {
          case 'ready':
          case 'load-failed':
            return; // start-up: see `readiness`
          case 'sent':
            if (running?.index === message.index) running.sent = message.sent;
            return;
          case 'observed': {
            if (running?.index !== message.index) return;
            clearTimeout(running.deadline);
            settle(message.index, message.observation, message.clientPackage);
            // Closing the case's client and server (each within the limit) and the rule checks are bounded
            // too; a thread that cannot finish them is replaced (its findings: checks not finished).
            const limitMs = limitOf(message.index);
            running.cleanup = watch(message.index, limitMs, 2 * limitMs + graceMs, 'cleanup', () => {});
            return;
          }
          case 'closed': {
            if (running?.index !== message.index) return;
            clearTimeout(running.deadline);
            clearTimeout(running.cleanup);
            running = undefined;
            // The thread has started the first queued case already: it runs now, and another is queued.
            const started = queued.shift();
            if (started !== undefined) begin(started);
            dispatch();
            lints.set(message.index, message.lint);
            over(message.index);
            return;
          }
        }
      };
      const died = (name: string, text: string) => {
        if (stopped) return;
        const at = running;
        if (at) {
          const scenario = scenarios[at.index]!;
          const { stage, sent } = boardRead(board, at.index);
          settle(at.index, { outcome: 'crashed', stage, error: { name, code: null, message: text }, serverSent: sentOf(at, sent, scenario) }, clientPackage(scenario.client));
        }
        stop();
      };
      // An uncaught error is told apart from the thread's messages (it comes on another port), so it can
      // arrive before the report of a case the thread had finished; the exit that follows comes after them
      // all. The error is kept, and the case is recorded at the exit.
      let failure: { name: string; text: string } | undefined;
      const onError = (error: Error) => {
        failure ??= { name: error.name, text: portableMessage(error.message) };
      };
      const onExit = (code: number) => died(failure?.name ?? 'WorkerExit', failure?.text ?? `the case's thread exited (code ${code}) before the case was recorded`);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      detachers.set(worker, detach);
      readiness.get(worker)!.then(
        () => {
          loaded = true;
          if (!stopped) dispatch();
        },
        (error: Error) => {
          if (failed) return;
          failed = true;
          // The other threads are stopped without a word: their cases did not crash, the run failed.
          for (const other of workers) {
            detachers.get(other)?.();
            void other.terminate();
          }
          workers.clear();
          reject(error);
        },
      );
    };

    if (scenarios.length === 0) return resolve({ records: [] });
    const jobs = options.jobs ?? defaultJobs(scenarios.length, availableParallelism());
    for (let slot = 0; slot < Math.max(1, Math.min(jobs, scenarios.length)); slot++) start(slot);
  });
}

/** What a stopped thread's case sent: from the board, or the message it posted for more than a kind. */
function sentOf(running: Running, onBoard: ServerSent | 'posted' | undefined, scenario: Scenario): ServerSent {
  if (onBoard === 'posted') return running.sent ?? 'unknown';
  return onBoard ?? unreported(scenario);
}

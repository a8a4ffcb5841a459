// What the case pool's main thread and its workers say to each other (plain, structured-cloneable data),
// and the status board they share.
import type { ClientModuleRef } from '../clients/load.ts';
import type { ClientLine, Environment, ErrorInfo, Finding, Observation, Scenario, ServerSent, Stage } from '../core/domain.ts';

export interface CaseWorkerInput {
  readonly environment: Environment;
  /** Releases to load instead of the pinned clients, per line. */
  readonly clients: Partial<Record<ClientLine, ClientModuleRef>>;
}

/**
 * A case thread's workerData. `input` is absent for a thread started before its run was known (by
 * bin/launch.mjs, before the command is even parsed): it loads the pinned SDKs and waits for `configure`.
 */
export interface CaseWorkerData {
  readonly board: SharedArrayBuffer;
  readonly input?: CaseWorkerInput;
}

export type ToCaseWorker =
  | { readonly kind: 'configure'; readonly input: CaseWorkerInput }
  /**
   * A case to run once the ones before it are over: the pool keeps one case queued behind the running
   * one, so a thread never waits for the main thread between cases (`npm run bench -- --only scale`).
   */
  | { readonly kind: 'case'; readonly index: number; readonly scenario: Scenario; readonly timeoutMs: number };

export type FromCaseWorker =
  | { readonly kind: 'ready' }
  | { readonly kind: 'load-failed'; readonly error: ErrorInfo }
  /** What the server sent, when it is more than a kind (the board has the kinds): posted before the board says so. */
  | { readonly kind: 'sent'; readonly index: number; readonly sent: ServerSent }
  | { readonly kind: 'observed'; readonly index: number; readonly observation: Observation; readonly clientPackage: string }
  /** The case is over; `lint`: the rule findings of the result it was given (null: it was given none). */
  | { readonly kind: 'closed'; readonly index: number; readonly lint: Finding[] | null };

/**
 * The status board: four Int32 slots of shared memory a case thread writes as a case goes and the pool
 * reads only when it has to stop the thread (a deadline passed, the thread died). A message per step
 * cost about as much as a tenth of an in-memory case; a store costs nothing, and a thread stuck in a
 * client's code has already written where it was. `beat` is the thread's heartbeat (BEAT_MS).
 */
export const BOARD = { running: 0, stage: 1, sent: 2, beat: 3 } as const;
export const BOARD_BYTES = 4 * Int32Array.BYTES_PER_ELEMENT;

/**
 * A case thread counts `BOARD.beat` up this often, from a timer of its event loop. A beat that stands
 * still tells the pool the loop is not turning (a client stuck in a validator's backtracking, a rule
 * check meeting the same pattern): then the case's own timer cannot fire either, and the pool need not
 * wait out its grace before stopping the thread.
 */
export const BEAT_MS = 100;
/** `BOARD.stage`: the index of the stage here. */
export const BOARD_STAGES: readonly Stage[] = ['connect', 'discover', 'call'];
/**
 * `BOARD.sent`: 0 nothing reported yet; 1-3 these kinds; 4 more than a kind, in a `sent` message.
 */
export const BOARD_SENT: readonly (ServerSent & string)[] = ['as-scenario', 'nothing', 'unknown'];
export const BOARD_SENT_POSTED = 4;

/** A new board: no case started (`BOARD.running` is -1 between cases, so a board kept across runs says nothing of the last run's cases). */
export function newBoard(): SharedArrayBuffer {
  const board = new SharedArrayBuffer(BOARD_BYTES);
  new Int32Array(board)[BOARD.running] = -1;
  return board;
}

/** What a thread writes when it starts a case (stage and sent first: whoever reads `running` sees this case's). */
export function boardStart(board: Int32Array, index: number): void {
  Atomics.store(board, BOARD.stage, 0);
  Atomics.store(board, BOARD.sent, 0);
  Atomics.store(board, BOARD.running, index);
}

/** Where the thread was in case `index`, from the board; undefined fields: not reported (or another case's). */
export function boardRead(board: Int32Array, index: number): { stage: Stage; sent: ServerSent | 'posted' | undefined } {
  const notReported = { stage: 'connect', sent: undefined } as const;
  if (Atomics.load(board, BOARD.running) !== index) return notReported;
  const sent = Atomics.load(board, BOARD.sent);
  const stage = Atomics.load(board, BOARD.stage);
  // A live thread may have moved on to its next case between these reads: then they are not this case's.
  if (Atomics.load(board, BOARD.running) !== index) return notReported;
  return {
    stage: BOARD_STAGES[stage] ?? 'connect',
    sent: sent === BOARD_SENT_POSTED ? 'posted' : sent === 0 ? undefined : BOARD_SENT[sent - 1],
  };
}

/** The thread's heartbeat count (BEAT_MS): the same twice BEAT_MS apart or more, its event loop is not turning. */
export function boardBeat(board: Int32Array): number {
  return Atomics.load(board, BOARD.beat);
}

/**
 * Whether the thread has started a case after `index`: then it is past `index`, whose report it posted
 * before starting the next (only the main thread has not read it yet).
 */
export function boardMovedOn(board: Int32Array, index: number): boolean {
  const running = Atomics.load(board, BOARD.running);
  return running !== index && running !== -1;
}

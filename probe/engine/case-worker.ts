// A case runner thread of the pool (pool.ts): loads the clients once, then observes one case at a time,
// each with a fresh fixture server and client, writing its progress on the shared status board and
// posting what the server sent (when more than a kind) and the observation as soon as it is made. It only
// observes; the main thread judges and records.
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import type { ClientUnderTest } from '../clients/index.ts';
import { adapters } from '../clients/index.ts';
import { loadClientUnderTest } from '../clients/load.ts';
import { LINE_PINS } from '../clients/packages.ts';
import { CLIENT_LINES, type ClientLine } from '../core/domain.ts';
import { givenResult } from '../core/fixture.ts';
import { lintResult } from '../core/lint.ts';
import { loadInMemoryFixture } from '../fixtures/index.ts';
import { describeError, observe } from './observe.ts';
import { pinnedClient } from './run.ts';
import { BEAT_MS, BOARD, BOARD_SENT, BOARD_SENT_POSTED, BOARD_STAGES, boardStart, type CaseWorkerData, type CaseWorkerInput, type FromCaseWorker, type ToCaseWorker } from './pool-protocol.ts';

// What a client or server prints in this thread is not the probe's output.
for (const stream of [process.stdout, process.stderr]) stream.write = (() => true) as typeof stream.write;

const data = workerData as CaseWorkerData;
const board = new Int32Array(data.board);
const port = parentPort!;
const post = (message: FromCaseWorker) => port.postMessage(message);

const clients = {} as Record<ClientLine, ClientUnderTest>;

// The heartbeat (pool-protocol.ts BEAT_MS): it stands still exactly when this thread's own timers cannot fire.
setInterval(() => Atomics.add(board, BOARD.beat, 1), BEAT_MS).unref();

/** Loads the run's clients, then says whether it could: the pool hands out cases only after `ready`. */
async function configure(input: CaseWorkerInput): Promise<void> {
  try {
    for (const line of CLIENT_LINES) {
      const ref = input.clients[line];
      clients[line] = ref ? await loadClientUnderTest(ref) : pinnedClient(line, input.environment);
      // An ecosystem line whose package the run's environment names (engine/run.ts environmentFor) is used
      // by this run: load it before the first case's clock starts.
      if (Object.hasOwn(LINE_PINS, line) && clients[line].adapter.packageName in input.environment.packages) await clients[line].adapter.preload?.();
    }
    post({ kind: 'ready' });
  } catch (error) {
    post({ kind: 'load-failed', error: describeError(error) });
  }
}

type CaseMessage = Extract<ToCaseWorker, { kind: 'case' }>;

async function runCase({ index, scenario, timeoutMs }: CaseMessage): Promise<void> {
  const client = clients[scenario.client];
  boardStart(board, index);
  await observe(scenario, client.adapter, {
    timeoutMs,
    onStage: (stage) => Atomics.store(board, BOARD.stage, BOARD_STAGES.indexOf(stage)),
    onSent: (sent) => {
      if (typeof sent === 'string') return void Atomics.store(board, BOARD.sent, BOARD_SENT.indexOf(sent) + 1);
      post({ kind: 'sent', index, sent });
      Atomics.store(board, BOARD.sent, BOARD_SENT_POSTED);
    },
    onObserved: (observation) => post({ kind: 'observed', index, observation, clientPackage: client.clientPackage }),
  });
  // The rule checks run here, not in the main thread: they validate the result against its outputSchema,
  // which can block a thread as long as a client's validator (the pool's deadline covers both).
  const result = givenResult(scenario.server);
  post({ kind: 'closed', index, lint: result ? lintResult(scenario.tool, result) : null });
  Atomics.store(board, BOARD.running, -1);
}

// Cases run one after another in the order they came; the pool sends the next ones before this one is over.
const queue: CaseMessage[] = [];
let draining = false;
const receive = (message: ToCaseWorker) => {
  if (message.kind === 'configure') void configure(message.input);
  else queue.push(message);
};
/**
 * The next case: queued, or waiting on the port. Taking it from the port here, instead of when the event
 * loop next dispatches it, saves a turn of the loop between cases (~0.04 ms of a ~1.3 ms in-memory case).
 */
function nextCase(): CaseMessage | undefined {
  while (queue.length === 0) {
    const received = receiveMessageOnPort(port);
    if (!received) break;
    receive(received.message as ToCaseWorker);
  }
  return queue.shift();
}
async function drain(): Promise<void> {
  draining = true;
  for (let next = nextCase(); next; next = nextCase()) await runCase(next);
  draining = false;
}

port.on('message', (message: ToCaseWorker) => {
  receive(message);
  if (!draining && queue.length > 0) void drain();
});

if (data.input) await configure(data.input);
else {
  // Started before its run was known (bin/launch.mjs): load what every in-memory case of the pinned SDK
  // lines uses while the main thread reads the command line; `configure` follows. A failure here is not
  // reported: the case that needs the module meets it again and records it.
  await Promise.all([adapters.v1.preload?.(), adapters.v2.preload?.(), loadInMemoryFixture()]).catch(() => {});
}

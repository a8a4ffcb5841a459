// A case runner thread of the pool (pool.ts): loads the clients once, then observes one case at a time,
// each with a fresh fixture server and client, reporting each step, what the server sent, and the
// observation as soon as it is made. It only observes; the main thread judges and records.
import { parentPort, workerData } from 'node:worker_threads';
import type { ClientUnderTest } from '../clients/index.ts';
import { loadClientUnderTest } from '../clients/load.ts';
import { LINE_PINS } from '../clients/packages.ts';
import { CLIENT_LINES, type ClientLine } from '../core/domain.ts';
import { givenResult } from '../core/fixture.ts';
import { lintResult } from '../core/lint.ts';
import { describeError, observe } from './observe.ts';
import { pinnedClient } from './run.ts';
import type { CaseWorkerInput, FromCaseWorker, ToCaseWorker } from './pool-protocol.ts';

// What a client or server prints in this thread is not the probe's output.
for (const stream of [process.stdout, process.stderr]) stream.write = (() => true) as typeof stream.write;

const input = workerData as CaseWorkerInput;
const port = parentPort!;
const post = (message: FromCaseWorker) => port.postMessage(message);

const clients = {} as Record<ClientLine, ClientUnderTest>;
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

port.on('message', async (message: ToCaseWorker) => {
  const { index, scenario, timeoutMs } = message;
  const client = clients[scenario.client];
  await observe(scenario, client.adapter, {
    timeoutMs,
    onStage: (stage) => post({ kind: 'stage', index, stage }),
    onSent: (sent) => post({ kind: 'sent', index, sent }),
    onObserved: (observation) => post({ kind: 'observed', index, observation, clientPackage: client.clientPackage }),
  });
  // The rule checks run here, not in the main thread: they validate the result against its outputSchema,
  // which can block a thread as long as a client's validator (the pool's deadline covers both).
  const result = givenResult(scenario.server);
  post({ kind: 'closed', index, lint: result ? lintResult(scenario.tool, result) : null });
});

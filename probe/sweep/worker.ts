// One worker per client release: the release's modules load into this worker's own module graph, so
// releases never share module state, and two workers use both cores.
import { parentPort, workerData } from 'node:worker_threads';
import type { ClientUnderTest } from '../clients/index.ts';
import { describeError } from '../engine/observe.ts';
import { runCases } from '../engine/run.ts';
import { loadClientUnderTest } from '../clients/load.ts';
import type { WorkerInput, WorkerOutput } from './protocol.ts';

const input = workerData as WorkerInput;
const post = (output: WorkerOutput) => parentPort?.postMessage(output);

let client: ClientUnderTest | undefined;
try {
  client = await loadClientUnderTest(input.release);
} catch (error) {
  post({ kind: 'failed', stage: 'load', error: describeError(error) });
}
if (client) {
  try {
    const cases = await runCases(input.scenarios, {
      timeoutMs: input.timeoutMs,
      environment: input.environment,
      clients: { [input.release.line]: client },
    });
    post({ kind: 'ran', cases });
  } catch (error) {
    post({ kind: 'failed', stage: 'run', error: describeError(error) });
  }
}

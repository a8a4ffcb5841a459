// One worker per client release: the release's modules load into this worker's own module graph, so
// releases never share module state, and two workers use both cores.
import { parentPort, workerData } from 'node:worker_threads';
import { describeError } from '../engine/observe.ts';
import { loadClientUnderTest } from '../releases/resolve.ts';
import type { ClientUnderTest } from '../clients/index.ts';
import { runMatrix } from '../engine/run.ts';
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
    const matrix = { name: 'sweep', title: '', source: '', scenarios: input.scenarios };
    const result = await runMatrix(matrix, input.scenarios, {
      timeoutMs: input.timeoutMs,
      environment: input.environment,
      clients: { [input.release.line]: client },
    });
    post({ kind: 'ran', cases: result.cases });
  } catch (error) {
    post({ kind: 'failed', stage: 'run', error: describeError(error) });
  }
}

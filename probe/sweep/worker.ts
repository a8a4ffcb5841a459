// A sweep worker: runs one release at a time, as the pool hands them over, for as long as the pool keeps
// it. Each release's client loads by its own path in the release cache (its own module instances), so a
// worker can serve release after release without one release's modules standing in for another's; what
// the worker keeps between releases is the harness and the pinned fixture server, loaded once.
import { parentPort } from 'node:worker_threads';
import type { ClientUnderTest } from '../clients/index.ts';
import { describeError } from '../engine/observe.ts';
import { runCases } from '../engine/run.ts';
import { loadClientUnderTest } from '../clients/load.ts';
import type { WorkerInput, WorkerOutput } from './protocol.ts';

async function runRelease(input: WorkerInput): Promise<WorkerOutput> {
  let client: ClientUnderTest;
  try {
    client = await loadClientUnderTest(input.release);
  } catch (error) {
    return { kind: 'failed', stage: 'load', error: describeError(error) };
  }
  try {
    const cases = await runCases(input.scenarios, {
      timeoutMs: input.timeoutMs,
      environment: input.environment,
      clients: { [input.release.line]: client },
    });
    return { kind: 'ran', cases };
  } catch (error) {
    return { kind: 'failed', stage: 'run', error: describeError(error) };
  }
}

parentPort?.on('message', (input: WorkerInput) => {
  void runRelease(input).then((output) => parentPort?.postMessage(output));
});

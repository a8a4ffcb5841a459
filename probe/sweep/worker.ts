// A sweep worker: runs one release at a time, as the pool hands them over, for as long as the pool keeps
// it. Each release loads by its own path in the release cache (its own module instances), so a worker can
// serve release after release without one release's modules standing in for another's; what the worker
// keeps between releases is the harness and the pinned fixture server, loaded once.
import { parentPort } from 'node:worker_threads';
import type { ClientUnderTest } from '../clients/index.ts';
import { describeError } from '../engine/observe.ts';
import { runCases } from '../engine/run.ts';
import { loadClientUnderTest } from '../clients/load.ts';
import { serverSourceOf } from '../releases/server-source.ts';
import { SERVER_SUBPATHS } from '../core/fixture.ts';
import type { WorkerInput, WorkerOutput } from './protocol.ts';

async function runRelease(input: WorkerInput): Promise<WorkerOutput> {
  // A client release replaces its line's client; a server release (a server sweep) replaces the server
  // package its line's fixtures come from, and the clients stay the pinned ones.
  const server = input.release.side === 'server';
  let client: ClientUnderTest | undefined;
  try {
    if (!server) client = await loadClientUnderTest(input.release);
  } catch (error) {
    return { kind: 'failed', stage: 'load', error: describeError(error) };
  }
  try {
    const source = server ? serverSourceOf(input.release) : undefined;
    // Loaded before the cases, so the first case does not pay the import within its time limit.
    if (source) await Promise.allSettled([...SERVER_SUBPATHS[source.line].map((subpath) => source.module(subpath)), source.dependency('zod')]);
    const cases = await runCases(input.scenarios, {
      timeoutMs: input.timeoutMs,
      environment: input.environment,
      ...(client && { clients: { [input.release.line]: client } }),
      ...(source && { servers: { [input.release.line]: source } }),
    });
    return { kind: 'ran', cases };
  } catch (error) {
    return { kind: 'failed', stage: 'run', error: describeError(error) };
  }
}

parentPort?.on('message', (input: WorkerInput) => {
  void runRelease(input).then((output) => parentPort?.postMessage(output));
});

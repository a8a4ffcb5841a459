// One worker per release (client or server): the release's modules load into this worker's own module graph, so
// releases never share module state, and two workers use both cores.
import { parentPort, workerData } from 'node:worker_threads';
import type { ClientUnderTest } from '../clients/index.ts';
import { describeError } from '../engine/observe.ts';
import { runCases } from '../engine/run.ts';
import { loadClientUnderTest } from '../clients/load.ts';
import { serverSourceOf } from '../releases/server-source.ts';
import { SERVER_SUBPATHS } from '../core/fixture.ts';
import type { WorkerInput, WorkerOutput } from './protocol.ts';

const input = workerData as WorkerInput;
const post = (output: WorkerOutput) => parentPort?.postMessage(output);

// A client release replaces its line's client; a server release (a server sweep) replaces the server
// package its line's fixtures come from, and the clients stay the pinned ones.
const server = input.release.side === 'server';
let client: ClientUnderTest | undefined;
try {
  if (!server) client = await loadClientUnderTest(input.release);
} catch (error) {
  post({ kind: 'failed', stage: 'load', error: describeError(error) });
}
if (client || server) {
  try {
    const source = server ? serverSourceOf(input.release) : undefined;
    if (source) await Promise.allSettled([...SERVER_SUBPATHS[source.line].map((subpath) => source.module(subpath)), source.dependency('zod')]);
    const cases = await runCases(input.scenarios, {
      timeoutMs: input.timeoutMs,
      environment: input.environment,
      ...(client && { clients: { [input.release.line]: client } }),
      ...(source && { servers: { [input.release.line]: source } }),
    });
    post({ kind: 'ran', cases });
  } catch (error) {
    post({ kind: 'failed', stage: 'run', error: describeError(error) });
  }
}

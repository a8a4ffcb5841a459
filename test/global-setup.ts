// Runs before any test file, once per `vitest run`:
// 1. builds dist/ (the shipped command's bundle, the sweep worker, the stdio fixture's child), which the
//    real-process tests, the sweep and the stdio transport cases load;
// 2. runs the audit and the extended matrix once each, on their own as the CLI runs them, against the
//    real pinned SDKs, and hands the results to the test files with provide/inject
//    (test/helpers/pinned-run.ts). Every test of what the pinned clients do reads this one run, so each
//    of those cases runs once per suite, whichever worker a file lands in (the extended matrix alone takes
//    ~10 s). The result is handed over in memory, not as a result file: the files sort payload keys, and
//    the evidence goldens show payloads in the order the client returned them.
import net from 'node:net';
import type { TestProject } from 'vitest/node';
import { buildCli, bundleIsFresh, sourceStamp } from '../probe/bin/build.mjs';
import type { ResultFile } from '../probe/core/domain.ts';
import { runMatrix } from '../probe/engine/run.ts';
import { captureEnvironment } from '../probe/io/environment.ts';
import { auditMatrix } from '../scenarios/audit.ts';
import { extendedMatrix } from '../scenarios/extended/index.ts';

export interface PinnedRun {
  /** Each built-in matrix's result, as `--matrix audit` / `--matrix extended` would write it. */
  readonly results: { readonly audit: ResultFile; readonly extended: ResultFile };
  /** Handles of the kinds a leaked server or child would leave, just before and just after the run. */
  readonly handles: { readonly before: string[]; readonly after: string[] };
  /** Every socket the run listened on or connected to, per matrix (net.Server.listen, net.Socket.connect). */
  readonly sockets: { readonly audit: string[]; readonly extended: string[] };
}

declare module 'vitest' {
  export interface ProvidedContext {
    pinnedRun: PinnedRun;
  }
}

const LEAKS = new Set(['TCPServerWrap', 'ProcessWrap', 'TCPSocketWrap']);
const openHandles = () => process.getActiveResourcesInfo().filter((kind) => LEAKS.has(kind)).sort();

export default async function setup(project: TestProject): Promise<void> {
  const stamp = sourceStamp();
  if (!bundleIsFresh(stamp)) await buildCli(stamp);

  const before = openHandles();
  const environment = captureEnvironment();
  // Every listen and connect of this process while each matrix runs (the cases run in this thread here).
  let sockets: string[] = [];
  const listen = net.Server.prototype.listen;
  const connect = net.Socket.prototype.connect;
  net.Server.prototype.listen = function (this: net.Server, ...args: unknown[]) {
    sockets.push(`listen ${JSON.stringify(args.filter((a) => typeof a !== 'function'))}`);
    return (listen as (...a: unknown[]) => net.Server).apply(this, args);
  } as typeof listen;
  net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
    sockets.push(`connect ${JSON.stringify(args.filter((a) => typeof a !== 'function'))}`);
    return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof connect;
  let results: PinnedRun['results'];
  const seen = { audit: [] as string[], extended: [] as string[] };
  try {
    const audit = await runMatrix(auditMatrix, auditMatrix.scenarios, { environment });
    seen.audit = sockets;
    sockets = [];
    const extended = await runMatrix(extendedMatrix, extendedMatrix.scenarios, { environment });
    seen.extended = sockets;
    results = { audit, extended };
  } finally {
    net.Server.prototype.listen = listen;
    net.Socket.prototype.connect = connect;
  }
  // Let closed handles finish closing.
  await new Promise((resolve) => setTimeout(resolve, 50));
  project.provide('pinnedRun', { results, handles: { before, after: openHandles() }, sockets: seen });
}

#!/usr/bin/env node
// The `mcp-sdk-probe` command. In the project's checkout it rebuilds dist/cli.mjs when the probe's
// sources changed since the last build (a fresh clone has no dist/, and `npm ci --ignore-scripts` runs no
// build step), then runs it. An installed package ships dist/ prebuilt (`prepack`) and no sources: it
// only runs dist/, and never writes into its own folder (which may be read-only, inside node_modules).
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { buildCli, bundleIsFresh, CASE_WORKER_BUNDLE, CLI_BUNDLE, hasSources, sourceStamp } from './build.mjs';

/**
 * The commands whose first work is running cases in the case pool (the audit, whatever its options, and
 * replay). For them a case thread starts now, before the stamp check and before dist/cli.mjs loads: the
 * thread evaluates the pinned SDKs (~0.25 s) while this thread loads the command (~0.2 s), instead of
 * after it (issue 10: the audit end to end within 1.15x of bench/floor.mjs). The pool adopts it
 * (probe/engine/pool.ts takeLaunchThread); unadopted (bad input, --help), it ends with the process.
 */
function runsCases(args) {
  if (args.some((arg) => ['--help', '-h', '--version', '-V'].includes(arg))) return false;
  return args[0] === undefined || args[0].startsWith('-') || args[0] === 'replay';
}

/** Same young generation as probe/engine/pool.ts YOUNG_GENERATION_MB (the pool adopts only a thread that has it). */
const YOUNG_GENERATION_MB = 4;
const LAUNCH_THREAD = Symbol.for('mcp-sdk-probe.launch-thread');

function startCaseThread() {
  const board = new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT);
  const worker = new Worker(pathToFileURL(CASE_WORKER_BUNDLE), { workerData: { board }, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
  const thread = { worker, board, exited: false };
  worker.unref();
  // Until adopted, a failure has no run to report to: the pool then starts a thread of its own.
  worker.on('error', () => {});
  worker.once('exit', () => {
    thread.exited = true;
  });
  return thread;
}

let thread = existsSync(CASE_WORKER_BUNDLE) && runsCases(process.argv.slice(2)) ? startCaseThread() : undefined;
if (hasSources()) {
  const stamp = sourceStamp();
  if (!bundleIsFresh(stamp)) {
    // The thread loaded the bundle being replaced.
    await thread?.worker.terminate();
    thread = undefined;
    await buildCli(stamp);
  }
} else if (!existsSync(CLI_BUNDLE)) {
  process.stderr.write(`mcp-sdk-probe: ${CLI_BUNDLE} is missing: this package was packed without its prebuilt dist/ (npm pack runs \`node probe/bin/build.mjs\` as prepack)\n`);
  process.exit(2);
}
if (thread) globalThis[LAUNCH_THREAD] = thread;
await import(pathToFileURL(CLI_BUNDLE).href);

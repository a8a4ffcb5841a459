#!/usr/bin/env node
// The `mcp-sdk-probe` command. In the project's checkout it rebuilds dist/cli.mjs when the probe's
// sources changed since the last build (a fresh clone has no dist/, and `npm ci --ignore-scripts` runs no
// build step), then runs it. An installed package ships dist/ prebuilt (`prepack`) and no sources: it
// only runs dist/, and never writes into its own folder (which may be read-only, inside node_modules).
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { buildCli, bundleIsFresh, CASE_WORKER_BUNDLE, CLI_BUNDLE, hasSources, sourceStamp, SWEEP_WORKER_BUNDLE } from './build.mjs';
import { LAUNCH_SWEEP_WORKER, LAUNCH_THREAD, runsCases, runsSweep, startLaunchSweepWorker, startLaunchThread } from './launch-threads.mjs';

// For a command that runs cases, a case thread starts first, before the stamp check and before
// dist/cli.mjs loads: it evaluates the pinned SDKs (~0.25 s) while this thread loads the command (~0.2 s),
// instead of after it (issue 10: the audit end to end within 1.15x of bench/floor.mjs). A sweep gets its
// first sweep worker the same way (issue 11).
// A SIGUSR1 would open the inspector on 127.0.0.1:9229, which runs the code of whoever connects (issue 20:
// a scenario module signalled its parent); ignored from here on (dist/cli.mjs does the same, for its own
// life), before anything else the command does. `node --inspect` still opens it.
if (process.platform !== 'win32') process.on('SIGUSR1', () => {});
const args = process.argv.slice(2);
let thread = existsSync(CASE_WORKER_BUNDLE) && runsCases(args) ? startLaunchThread(CASE_WORKER_BUNDLE) : undefined;
let sweepWorker = existsSync(SWEEP_WORKER_BUNDLE) && runsSweep(args) ? startLaunchSweepWorker(SWEEP_WORKER_BUNDLE) : undefined;
if (hasSources()) {
  const stamp = sourceStamp();
  if (!bundleIsFresh(stamp)) {
    // They loaded the bundles being replaced.
    await Promise.all([thread?.worker.terminate(), sweepWorker?.worker.terminate()]);
    thread = sweepWorker = undefined;
    await buildCli(stamp);
  }
} else if (!existsSync(CLI_BUNDLE)) {
  process.stderr.write(`mcp-sdk-probe: ${CLI_BUNDLE} is missing: this package was packed without its prebuilt dist/ (npm pack runs \`node probe/bin/build.mjs\` as prepack)\n`);
  process.exit(2);
}
if (thread) globalThis[LAUNCH_THREAD] = thread;
if (sweepWorker) globalThis[LAUNCH_SWEEP_WORKER] = sweepWorker;
await import(pathToFileURL(CLI_BUNDLE).href);

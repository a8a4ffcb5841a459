#!/usr/bin/env node
// The `mcp-sdk-probe` command. Rebuilds dist/cli.mjs when the probe's sources changed since the last
// build (a fresh clone has no dist/, and `npm ci --ignore-scripts` runs no build step), then runs it.
import { pathToFileURL } from 'node:url';
import { buildCli, bundleIsFresh, CLI_BUNDLE, sourceStamp } from './build.mjs';

const stamp = sourceStamp();
if (!bundleIsFresh(stamp)) await buildCli(stamp);
await import(pathToFileURL(CLI_BUNDLE).href);

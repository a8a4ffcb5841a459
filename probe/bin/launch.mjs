#!/usr/bin/env node
// The `mcp-sdk-probe` command. In the project's checkout it rebuilds dist/cli.mjs when the probe's
// sources changed since the last build (a fresh clone has no dist/, and `npm ci --ignore-scripts` runs no
// build step), then runs it. An installed package ships dist/ prebuilt (`prepack`) and no sources: it
// only runs dist/, and never writes into its own folder (which may be read-only, inside node_modules).
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { buildCli, bundleIsFresh, CLI_BUNDLE, hasSources, sourceStamp } from './build.mjs';

if (hasSources()) {
  const stamp = sourceStamp();
  if (!bundleIsFresh(stamp)) await buildCli(stamp);
} else if (!existsSync(CLI_BUNDLE)) {
  process.stderr.write(`mcp-sdk-probe: ${CLI_BUNDLE} is missing: this package was packed without its prebuilt dist/ (npm pack runs \`node probe/bin/build.mjs\` as prepack)\n`);
  process.exit(2);
}
await import(pathToFileURL(CLI_BUNDLE).href);

// The floor for `npm run bench -- --only sweep`: each release of a sweep loaded once, in this one process,
// one after another, making the audit's calls (v1: six warm and one cold; v2: six warm) against the
// pinned low-level Server over the in-memory transport, as bench/floor.mjs does for the pinned clients.
// No harness, no threads. Usage: node bench/sweep-floor.mjs <release cache> <line@version>...
// A release the project pins loads from its own node_modules, as the sweep loads it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { floorCall, shapes } from './floor-call.mjs';

const [cacheDir, ...releases] = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const PINNED = {
  v1: JSON.parse(readFileSync(new URL('../node_modules/@modelcontextprotocol/sdk/package.json', import.meta.url), 'utf8')).version,
  v2: JSON.parse(readFileSync(new URL('../node_modules/@modelcontextprotocol/client/package.json', import.meta.url), 'utf8')).version,
};
const ENTRY = { v1: '/client/index.js', v2: '' };
const PINNED_MODULE = { v1: '@modelcontextprotocol/sdk/client/index.js', v2: '@modelcontextprotocol/client' };

const { load } = await import(pathToFileURL(join(cacheDir, 'load.mjs')).href);
const outcomes = [];
for (const key of releases) {
  const [line, version] = key.split('@');
  const module = version === PINNED[line] ? await import(PINNED_MODULE[line]) : await load(`${line}-${version}${ENTRY[line]}`);
  for (const result of shapes) outcomes.push(`${key} ${await floorCall(line, module.Client, true, result)}`);
  if (line === 'v1') outcomes.push(`${key} cold ${await floorCall(line, module.Client, false, shapes[4])}`);
}
if (process.argv.includes('--print')) console.log(outcomes.join('\n'));

// The floor for `npm run bench -- --only sweep`: each release of a sweep loaded once, in this one process,
// one after another, making the audit's calls (v1: six warm and one cold; v2: six warm) against the
// pinned low-level Server over the in-memory transport, as bench/floor.mjs does for the pinned clients.
// No harness, no threads. Usage: node bench/sweep-floor.mjs <release cache> <line@version>...
// A release the project pins loads from its own node_modules, as the sweep loads it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const [cacheDir, ...releases] = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const PINNED = {
  v1: JSON.parse(readFileSync(new URL('../node_modules/@modelcontextprotocol/sdk/package.json', import.meta.url), 'utf8')).version,
  v2: JSON.parse(readFileSync(new URL('../node_modules/@modelcontextprotocol/client/package.json', import.meta.url), 'utf8')).version,
};
const ENTRY = { v1: '/client/index.js', v2: '' };
const PINNED_MODULE = { v1: '@modelcontextprotocol/sdk/client/index.js', v2: '@modelcontextprotocol/client' };

const tool = {
  name: 'probe_value',
  inputSchema: { type: 'object' },
  outputSchema: { type: 'object', properties: { value: { type: 'number' } }, required: ['value'], additionalProperties: false },
};
const text = (t) => [{ type: 'text', text: t }];
const shapes = [
  { content: text('{"value":7}'), structuredContent: { value: 7 } },
  { content: text('{"error":"unavailable"}'), structuredContent: { error: 'unavailable' } },
  { content: text('7') },
  { content: text('unavailable'), isError: true },
  { content: text('unavailable'), structuredContent: { error: 'unavailable' }, isError: true },
  { content: text('unavailable'), structuredContent: { value: 0 }, isError: true },
];

async function call(line, Client, warm, result) {
  const server = new Server({ name: 'floor', version: '0.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [tool] }));
  server.setRequestHandler(CallToolRequestSchema, () => structuredClone(result));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'floor', version: '0.0.0' });
  if (line === 'v1') await client.connect(clientSide);
  else await client.connect(clientSide, { prior: { kind: 'legacy' } });
  if (warm) await client.listTools();
  let outcome;
  try {
    const r = await client.callTool({ name: tool.name, arguments: {} });
    outcome = `returned isError=${r.isError === true}`;
  } catch (error) {
    outcome = `rejected ${error.code}`;
  }
  await client.close();
  await server.close();
  return outcome;
}

const { load } = await import(pathToFileURL(join(cacheDir, 'load.mjs')).href);
const outcomes = [];
for (const key of releases) {
  const [line, version] = key.split('@');
  const module = version === PINNED[line] ? await import(PINNED_MODULE[line]) : await load(`${line}-${version}${ENTRY[line]}`);
  for (const result of shapes) outcomes.push(`${key} ${await call(line, module.Client, true, result)}`);
  if (line === 'v1') outcomes.push(`${key} cold ${await call(line, module.Client, false, shapes[4])}`);
}
if (process.argv.includes('--print')) console.log(outcomes.join('\n'));

// What both floors (bench/floor.mjs, bench/sweep-floor.mjs) do per call, with no harness around it: the
// audit's tool and six result shapes, and one call through a given Client class against the pinned
// low-level Server over the in-memory transport, fresh server and client per call as the probe does.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

export const tool = {
  name: 'probe_value',
  inputSchema: { type: 'object' },
  outputSchema: { type: 'object', properties: { value: { type: 'number' } }, required: ['value'], additionalProperties: false },
};
const text = (t) => [{ type: 'text', text: t }];
export const shapes = [
  { content: text('{"value":7}'), structuredContent: { value: 7 } },
  { content: text('{"error":"unavailable"}'), structuredContent: { error: 'unavailable' } },
  { content: text('7') },
  { content: text('unavailable'), isError: true },
  { content: text('unavailable'), structuredContent: { error: 'unavailable' }, isError: true },
  { content: text('unavailable'), structuredContent: { value: 0 }, isError: true },
];

/** One call: `line` says how to connect (v2 takes the 2025-era handshake as `prior`), `warm` lists first. */
export async function floorCall(line, Client, warm, result) {
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

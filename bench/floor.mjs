// The floor for `npm run bench`: the same 13 calls the audit makes, with no harness around them.
// Fresh server and client per call, like the probe, so the only difference is the harness itself.
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as V2Client } from '@modelcontextprotocol/client';

const tool = {
  name: 'probe_value',
  inputSchema: { type: 'object' },
  outputSchema: {
    type: 'object',
    properties: { value: { type: 'number' } },
    required: ['value'],
    additionalProperties: false,
  },
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

async function call(line, warm, result) {
  const server = new Server({ name: 'floor', version: '0.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [tool] }));
  server.setRequestHandler(CallToolRequestSchema, () => structuredClone(result));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = line === 'v1'
    ? new V1Client({ name: 'floor', version: '0.0.0' })
    : new V2Client({ name: 'floor', version: '0.0.0' });
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

// `--cases N`: the scale floor for `npm run bench -- --only scale`: N calls cycling through the six shapes
// and the four client/discovery cells, as the generated scenario files of that benchmark do.
const scale = process.argv.indexOf('--cases');
const outcomes = [];
if (scale !== -1) {
  const cases = Number(process.argv[scale + 1]);
  const cells = [['v1', true], ['v1', false], ['v2', true], ['v2', false]];
  for (let i = 0; i < cases; i++) {
    const [line, warm] = cells[i % 4];
    await call(line, warm, shapes[Math.floor(i / 4) % shapes.length]);
  }
} else {
  for (const line of ['v1', 'v2']) for (const result of shapes) outcomes.push(await call(line, true, result));
  outcomes.push(await call('v1', false, shapes[4]));
}
if (process.argv.includes('--print')) console.log(outcomes.join('\n'));

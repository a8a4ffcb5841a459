// The fixture server as a child process on stdio: the v1 low-level Server answering tools/call with the
// result in MCP_SDK_PROBE_FIXTURE. Plain JavaScript, so the child loads no TypeScript tooling. It reports
// the tools/call response it sends on stderr (one line, prefixed), so the probe can check what went out.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

export const SENT_PREFIX = 'MCP_SDK_PROBE_SENT ';
const { tool, result, name, version } = JSON.parse(process.env.MCP_SDK_PROBE_FIXTURE ?? '{}');

const server = new Server({ name, version }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [tool] }));
server.setRequestHandler(CallToolRequestSchema, () => structuredClone(result));
const transport = new StdioServerTransport();
let callId;
await server.connect(transport);
const receive = transport.onmessage;
transport.onmessage = (message, extra) => {
  if (message.method === 'tools/call') callId = message.id;
  receive?.(message, extra);
};
const send = transport.send.bind(transport);
transport.send = async (message, options) => {
  if (callId !== undefined && message.id === callId) process.stderr.write(`${SENT_PREFIX}${JSON.stringify(message)}\n`);
  return send(message, options);
};

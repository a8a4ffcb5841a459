// The audit's fixture: the v1 low-level `Server` (not `McpServer`) on a linked in-memory pair. It lists
// one tool and answers `tools/call` with the scenario's synthetic result, so every client line receives
// the same bytes from the same server and any difference is the client's.
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { isDeepStrictEqual } from 'node:util';
import type { ServerBehaviour, ServerSent, ToolDefinition } from './domain.ts';
import { HARNESS } from './harness.ts';

export type FixtureTransport = Transport;

export interface RunningFixture {
  /** The client's end of the linked pair. */
  readonly clientTransport: FixtureTransport;
  /** What went out as the `tools/call` result so far, compared with what the scenario said to send. */
  serverSent(): ServerSent;
  close(): Promise<void>;
}

export async function startFixtureServer(tool: ToolDefinition, behaviour: ServerBehaviour): Promise<RunningFixture> {
  const server = new Server({ name: `${HARNESS.name}-fixture`, version: HARNESS.version }, { capabilities: { tools: {} } });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();

  let callRequestId: string | number | undefined;
  let sentResult: unknown;
  let sent = false;

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [structuredClone(tool)] }));
  // `Server.setRequestHandler` is the SDK's public (wrapped) registration: since 1.24.0 it re-parses the
  // handler's return value as a CallToolResult before sending. That is what a real low-level server gets,
  // so we keep it, and `serverSent()` proves the scenario's result crossed the wire unchanged.
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    callRequestId = extra.requestId;
    if (behaviour.kind === 'hang') return new Promise<never>(() => {});
    // A copy: the in-memory transport passes objects by reference and a client must not be able to
    // mutate the scenario.
    return structuredClone(behaviour.result) as never;
  });

  // Observe (not alter) the server's outgoing messages to capture the tools/call response as sent.
  const send = serverTransport.send.bind(serverTransport);
  serverTransport.send = async (message: JSONRPCMessage, options) => {
    if (callRequestId !== undefined && 'id' in message && message.id === callRequestId && 'result' in message) {
      sent = true;
      sentResult = structuredClone(message.result);
    }
    return send(message, options);
  };

  await server.connect(serverTransport);

  return {
    clientTransport,
    serverSent() {
      if (!sent) return 'nothing';
      if (behaviour.kind === 'respond' && isDeepStrictEqual(sentResult, behaviour.result)) return 'as-scenario';
      return { altered: JSON.parse(JSON.stringify(sentResult ?? null)) };
    },
    close: () => server.close(),
  };
}

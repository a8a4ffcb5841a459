// The fixture server. By default the audit's: the v1 low-level `Server` (not `McpServer`) on a linked
// in-memory pair, listing one tool and answering `tools/call` with the scenario's synthetic result, so every
// client line receives the same bytes from the same server and any difference is the client's. The
// extended matrix adds faults (hang, close, malformed or misaddressed answers, a throwing handler),
// pagination, a list_changed schema switch, and the high-level server helpers of both lines.
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { isDeepStrictEqual } from 'node:util';
import type { ServerBehaviour, ServerSent, ToolDefinition } from './domain.ts';
import { startHelperServer } from './fixture-helpers.ts';
import { HARNESS } from './harness.ts';

export type FixtureTransport = Transport;

export interface RunningFixture {
  /** The client's end of the linked pair. */
  readonly clientTransport: FixtureTransport;
  /** What went out as the `tools/call` response so far, compared with what the scenario said to send. */
  serverSent(): ServerSent;
  /** For `changeTo`: switch the listed tool and notify the client with notifications/tools/list_changed. */
  changeTool(): Promise<void>;
  close(): Promise<void>;
}

const DECOY: ToolDefinition = { name: 'probe_decoy', description: 'Listed first, so the tool under test is on the second page.', inputSchema: { type: 'object' } };
export const SECOND_PAGE = 'page-2';

/** Watches both directions of the pair: the client's tools/call request id, and the server's answer to it. */
function tapCall(clientTransport: Transport, serverTransport: Transport) {
  let callId: string | number | undefined;
  let answer: { result?: unknown; error?: { code: number; message: string } } | undefined;
  const clientSend = clientTransport.send.bind(clientTransport);
  clientTransport.send = async (message: JSONRPCMessage, options) => {
    if ('method' in message && message.method === 'tools/call' && 'id' in message) callId = message.id;
    return clientSend(message, options);
  };
  const serverSend = serverTransport.send.bind(serverTransport);
  serverTransport.send = async (message: JSONRPCMessage, options) => {
    if (callId !== undefined && 'id' in message && message.id === callId && answer === undefined) {
      if ('result' in message) answer = { result: structuredClone(message.result) };
      else if ('error' in message) answer = { error: { code: message.error.code, message: message.error.message } };
    }
    return serverSend(message, options);
  };
  return {
    callId: () => callId,
    sent(expected: unknown): ServerSent {
      if (!answer) return 'nothing';
      if (answer.error) return { error: answer.error };
      if (isDeepStrictEqual(answer.result, expected)) return 'as-scenario';
      return { altered: JSON.parse(JSON.stringify(answer.result ?? null)) };
    },
  };
}

export async function startFixtureServer(tool: ToolDefinition, behaviour: ServerBehaviour): Promise<RunningFixture> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const tap = tapCall(clientTransport, serverTransport);
  if (behaviour.kind === 'helper') {
    const helper = await startHelperServer(behaviour.helper, tool, behaviour.result, serverTransport);
    return {
      clientTransport,
      serverSent: () => tap.sent(behaviour.result),
      changeTool: async () => {},
      close: () => helper.close(),
    };
  }

  let listed = tool;
  const paginate = behaviour.kind === 'respond' && behaviour.paginate === true;
  const server = new Server(
    { name: `${HARNESS.name}-fixture`, version: HARNESS.version },
    { capabilities: { tools: behaviour.kind === 'respond' && behaviour.changeTo ? { listChanged: true } : {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    if (!paginate) return { tools: [structuredClone(listed)] };
    return request.params?.cursor === SECOND_PAGE ? { tools: [structuredClone(listed)] } : { tools: [DECOY], nextCursor: SECOND_PAGE };
  });
  const never = () => new Promise<never>(() => {});
  // `Server.setRequestHandler` is the SDK's public (wrapped) registration: since 1.24.0 it re-parses the
  // handler's return value as a CallToolResult before sending. That is what a real low-level server gets,
  // so we keep it, and `serverSent()` proves the scenario's result crossed the wire unchanged.
  const register =
    behaviour.kind === 'respond' && behaviour.registration === 'raw'
      ? Protocol.prototype.setRequestHandler.bind(server)
      : server.setRequestHandler.bind(server);
  register(CallToolRequestSchema, async (_request, extra) => {
    switch (behaviour.kind) {
      case 'respond':
        // A copy: the in-memory transport passes objects by reference; a client must not mutate the scenario.
        return structuredClone(behaviour.result) as never;
      case 'hang':
        return never();
      case 'throw':
        throw new Error(behaviour.message);
      case 'close':
        await serverTransport.close();
        return never();
      case 'malformed':
        // Neither a request, a notification, a result nor an error: not JSON-RPC a client can route.
        await serverTransport.send({ jsonrpc: '2.0', id: extra.requestId, outcome: 'done' } as unknown as JSONRPCMessage);
        return never();
      case 'wrong-id':
        await serverTransport.send({ jsonrpc: '2.0', id: `${String(extra.requestId)}-other`, result: structuredClone(behaviour.result) } as JSONRPCMessage);
        return never();
    }
  });
  await server.connect(serverTransport);

  const expectedResult = behaviour.kind === 'respond' || behaviour.kind === 'wrong-id' ? behaviour.result : undefined;
  return {
    clientTransport,
    serverSent: () => tap.sent(expectedResult),
    async changeTool() {
      if (behaviour.kind !== 'respond' || !behaviour.changeTo) return;
      listed = behaviour.changeTo;
      await server.sendToolListChanged();
      // Let the client handle the notification (and any refresh it starts) before the call.
      await new Promise((resolve) => setTimeout(resolve, 20));
    },
    close: () => server.close(),
  };
}

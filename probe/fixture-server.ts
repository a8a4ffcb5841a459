// The fixture server. By default the audit's: the v1 low-level `Server` (not `McpServer`) on a linked
// in-memory pair, listing one tool and answering `tools/call` with the scenario's synthetic result, so every
// client line receives the same bytes from the same server and any difference is the client's. The
// extended matrix adds faults (hang, close, malformed or misaddressed answers, a throwing handler),
// pagination, a list_changed schema switch, the high-level server helpers of both lines, and the same
// server over stdio (a child process) and Streamable HTTP (loopback, a port the OS picks).
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { randomUUID } from 'node:crypto';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { ServerBehaviour, ServerSent, ToolDefinition, TransportKind } from './domain.ts';
import { startHelperServer } from './fixture-helpers.ts';
import { HARNESS } from './harness.ts';
import { PROJECT_ROOT } from './project.ts';

export type FixtureTransport = Transport;

/** How a client reaches the fixture: a transport object, a command to spawn, or a URL. */
export type ClientEndpoint =
  | { readonly kind: 'in-memory'; readonly transport: Transport }
  /** A Streamable HTTP endpoint served by a fetch function in this process; `era` is what the client negotiates. */
  | { readonly kind: 'fetch'; readonly url: string; readonly fetch: (url: string | URL, init?: RequestInit) => Promise<Response>; readonly era: 'modern' | 'legacy' }
  | { readonly kind: 'stdio'; readonly command: string; readonly args: readonly string[]; readonly env: Record<string, string> }
  | { readonly kind: 'http'; readonly url: string };

export interface RunningFixture {
  readonly endpoint: ClientEndpoint;
  /** stdio only: the child's stderr, on which it reports the tools/call response it sent. */
  attachServerStderr(stream: NodeJS.ReadableStream | null | undefined): void;
  /** What went out as the `tools/call` response so far, compared with what the scenario said to send. */
  serverSent(): ServerSent;
  /**
   * Waits until the server's report of its answer has arrived (stdio: the child reports on stderr, which
   * can be read after the answer on stdout), at most `limitMs`.
   */
  settle(limitMs: number): Promise<void>;
  /** For `changeTo`: switch the listed tool and notify the client with notifications/tools/list_changed. */
  changeTool(): Promise<void>;
  close(): Promise<void>;
}

const DECOY: ToolDefinition = { name: 'probe_decoy', description: 'Listed first, so the tool under test is on the second page.', inputSchema: { type: 'object' } };
export const SECOND_PAGE = 'page-2';
const STDIO_SENT_PREFIX = 'MCP_SDK_PROBE_SENT ';

type Answer = { result?: unknown; error?: { code: number; message: string } } | undefined;

function sentFrom(answer: Answer, expected: unknown): ServerSent {
  if (!answer) return 'nothing';
  if (answer.error) return { error: answer.error };
  if (isDeepStrictEqual(answer.result, expected)) return 'as-scenario';
  return { altered: JSON.parse(JSON.stringify(answer.result ?? null)) };
}

function answerOf(message: JSONRPCMessage): Answer {
  if ('result' in message) return { result: structuredClone(message.result) };
  if ('error' in message) return { error: { code: message.error.code, message: message.error.message } };
  return undefined;
}

/**
 * Watches a connected server transport (observing, not altering): the tools/call request id as it comes
 * in, and the server's answer to it as it goes out.
 */
function tapServer(serverTransport: Transport) {
  let callId: string | number | undefined;
  let answer: Answer;
  const receive = serverTransport.onmessage;
  serverTransport.onmessage = (message, extra) => {
    if ('method' in message && message.method === 'tools/call' && 'id' in message) callId = message.id;
    receive?.(message, extra);
  };
  const send = serverTransport.send.bind(serverTransport);
  serverTransport.send = async (message: JSONRPCMessage, options) => {
    if (callId !== undefined && answer === undefined && 'id' in message && message.id === callId) answer = answerOf(message);
    return send(message, options);
  };
  return { sent: (expected: unknown) => sentFrom(answer, expected) };
}

/** The v1 low-level Server with the scenario's behaviour, connected to `serverTransport`. */
async function startLowLevel(tool: ToolDefinition, behaviour: Exclude<ServerBehaviour, { kind: 'helper' | 'v2-handler' }>, serverTransport: Transport) {
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
  // so it is the default, and `serverSent()` proves the scenario's result crossed the wire unchanged.
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
  return {
    server,
    async changeTool() {
      if (behaviour.kind !== 'respond' || !behaviour.changeTo) return;
      listed = behaviour.changeTo;
      await server.sendToolListChanged();
      // Let the client handle the notification (and any refresh it starts) before the call.
      await new Promise((resolve) => setTimeout(resolve, 20));
    },
  };
}

function expectedResultOf(behaviour: ServerBehaviour): unknown {
  if (behaviour.kind === 'respond' || behaviour.kind === 'wrong-id' || behaviour.kind === 'helper' || behaviour.kind === 'v2-handler') return behaviour.result;
  return undefined;
}

/** JSON-RPC messages in a Streamable HTTP body: plain JSON, or the data lines of an event stream. */
function messagesIn(text: string, contentType: string | null): JSONRPCMessage[] {
  const parse = (json: string): JSONRPCMessage[] => {
    try {
      const value = JSON.parse(json) as unknown;
      return (Array.isArray(value) ? value : [value]) as JSONRPCMessage[];
    } catch {
      return [];
    }
  };
  if (contentType?.includes('text/event-stream')) {
    return text
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .flatMap((line) => parse(line.slice(5).trim()));
  }
  return parse(text);
}

async function startV2Handler(tool: ToolDefinition, behaviour: Extract<ServerBehaviour, { kind: 'v2-handler' }>, expected: unknown): Promise<RunningFixture> {
  const { Server: V2Server, createMcpHandler } = await import('@modelcontextprotocol/server');
  const handler = createMcpHandler(() => {
    // A fixed version: the modern era echoes serverInfo into every result's _meta, so the harness's own
    // version would otherwise show up in recorded case data and change it on every release.
    const server = new V2Server({ name: `${HARNESS.name}-fixture`, version: '1' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', () => ({ tools: [structuredClone(tool)] }) as never);
    server.setRequestHandler('tools/call', () => structuredClone(behaviour.result) as never);
    return server;
  });
  let callId: string | number | undefined;
  let answer: Answer;
  // Observe (not alter) the exchange at the fetch boundary: the tools/call request going in, its answer
  // coming out.
  const fetch = async (url: string | URL, init?: RequestInit): Promise<Response> => {
    if (typeof init?.body === 'string') {
      for (const message of messagesIn(init.body, 'application/json')) {
        if ('method' in message && message.method === 'tools/call' && 'id' in message) callId = message.id;
      }
    }
    const response = await handler.fetch(new Request(url, init));
    if (callId !== undefined && answer === undefined && response.body) {
      const text = await response.clone().text();
      const reply = messagesIn(text, response.headers.get('content-type')).find((m) => 'id' in m && m.id === callId);
      if (reply) answer = answerOf(reply);
    }
    return response;
  };
  return {
    endpoint: { kind: 'fetch', url: 'http://fixture.invalid/mcp', fetch, era: behaviour.era },
    attachServerStderr: () => {},
    serverSent: () => sentFrom(answer, expected),
    settle: async () => {},
    changeTool: async () => {},
    close: () => handler.close(),
  };
}

async function listen(http: HttpServer): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    // Port 0: the OS picks a free port; loopback only.
    http.listen(0, '127.0.0.1', () => resolve());
  });
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
}

export async function startFixtureServer(tool: ToolDefinition, behaviour: ServerBehaviour, transport: TransportKind = 'in-memory'): Promise<RunningFixture> {
  const expected = expectedResultOf(behaviour);
  if (behaviour.kind === 'v2-handler') return startV2Handler(tool, behaviour, expected);
  if (transport === 'stdio') {
    if (behaviour.kind !== 'respond') throw new Error(`fixture: the stdio fixture answers with a result only, not ${behaviour.kind}`);
    let answer: Answer;
    let buffered = '';
    let reported: () => void = () => {};
    const answered = new Promise<void>((resolve) => (reported = resolve));
    return {
      endpoint: {
        kind: 'stdio',
        command: process.execPath,
        args: [join(PROJECT_ROOT, 'probe', 'fixture-stdio.mjs')],
        env: {
          MCP_SDK_PROBE_FIXTURE: JSON.stringify({ tool, result: behaviour.result, name: `${HARNESS.name}-fixture`, version: HARNESS.version }),
          ...(process.env.PATH ? { PATH: process.env.PATH } : {}),
        },
      },
      attachServerStderr(stream) {
        stream?.on('data', (chunk: Buffer | string) => {
          buffered += chunk.toString();
          for (let at = buffered.indexOf('\n'); at !== -1; at = buffered.indexOf('\n')) {
            const line = buffered.slice(0, at);
            buffered = buffered.slice(at + 1);
            if (line.startsWith(STDIO_SENT_PREFIX) && answer === undefined) {
              answer = answerOf(JSON.parse(line.slice(STDIO_SENT_PREFIX.length)));
              reported();
            }
          }
        });
      },
      serverSent: () => sentFrom(answer, expected),
      async settle(limitMs) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([answered, new Promise<void>((resolve) => (timer = setTimeout(resolve, limitMs)))]);
        clearTimeout(timer);
      },
      changeTool: async () => {},
      // The child belongs to the client's transport, which closes (and ends) it.
      close: async () => {},
    };
  }

  if (transport === 'http') {
    if (behaviour.kind === 'helper') throw new Error('fixture: the HTTP fixture runs the low-level Server only');
    const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
    const serverTransport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), enableJsonResponse: true });
    const fixture = await startLowLevel(tool, behaviour, serverTransport);
    const tap = tapServer(serverTransport);
    const http = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        void serverTransport.handleRequest(req, res, body ? JSON.parse(body) : undefined).catch(() => res.destroy());
      });
    });
    const url = await listen(http);
    return {
      endpoint: { kind: 'http', url },
      attachServerStderr: () => {},
      serverSent: () => tap.sent(expected),
      settle: async () => {},
      changeTool: () => fixture.changeTool(),
      async close() {
        await fixture.server.close();
        // Nothing is left listening: drop keep-alive sockets, then stop the listener.
        http.closeAllConnections();
        await new Promise<void>((resolve) => http.close(() => resolve()));
      },
    };
  }

  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  let started: { close(): Promise<void>; changeTool(): Promise<void> };
  if (behaviour.kind === 'helper') {
    const helper = await startHelperServer(behaviour.helper, tool, behaviour.result, serverTransport);
    started = { close: () => helper.close(), changeTool: async () => {} };
  } else {
    const fixture = await startLowLevel(tool, behaviour, serverTransport);
    started = { close: () => fixture.server.close(), changeTool: () => fixture.changeTool() };
  }
  const tap = tapServer(serverTransport);
  return {
    endpoint: { kind: 'in-memory', transport: clientTransport },
    attachServerStderr: () => {},
    serverSent: () => tap.sent(expected),
    settle: async () => {},
    changeTool: () => started.changeTool(),
    close: () => started.close(),
  };
}

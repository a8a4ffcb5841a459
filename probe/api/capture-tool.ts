// captureTool: a tool definition and a tools/call result taken from a server author's real server, so the
// matchers and `replay` judge what the server really sends, not what a test says its handler returns
// (an McpServer replaces an off-schema success with an isError result before it leaves the process).
//
// The capture is a real MCP connection: the v1 SDK's Client (@modelcontextprotocol/sdk, the pinned
// release) over an in-memory linked pair to a server instance, or over stdio to a command it starts. The
// client only does the handshake and sends the requests: tools/list and tools/call go through its generic
// `request()` with a schema that accepts any object (its `listTools()` compiles every output schema and
// would throw on one it cannot compile; its `callTool()` validates the result, which is the clients' job
// in the replay, not the capture's), and what is kept is the raw JSON-RPC response as it arrived at the
// client's transport (a tap on `onmessage`), copied before anything parses it.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ToolDefinitionSchema, ToolResultSchema, type ToolDefinition, type ToolResult } from '../core/domain.ts';
import { InputError } from '../core/errors.ts';
import { terminalText } from '../core/escape.ts';
import { HARNESS } from '../core/harness.ts';

/** A server the capture connects to in memory: the v1 SDK's `McpServer` or `Server`, or the v2 server package's `McpServer`. */
export interface ServerInstance {
  // `never`: any server's own Transport type fits; the capture hands it the v1 in-memory transport,
  // which both lines' servers drive (probe/fixtures/mcp-server.ts does the same).
  connect(transport: never): Promise<unknown>;
}

/** A server the capture starts as a child process and speaks to over stdio, as an MCP host does. */
export interface StdioServerCommand {
  readonly command: string;
  readonly args?: readonly string[];
  /** The child's environment (added to the SDK's default: HOME, PATH, …; the parent's is not inherited). */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

/**
 * Where the tool is: an unconnected server instance (it is connected for the capture and disconnected
 * after it, so it can be captured again), a function that makes one, or a stdio command.
 */
export type ServerSource = ServerInstance | (() => ServerInstance | Promise<ServerInstance>) | StdioServerCommand;

export interface CaptureOptions {
  /** Names the result in case ids and reports, and the capture file (default: the tool's name). */
  readonly name?: string;
  /** Limit in milliseconds for each of connect, every tools/list page and tools/call (default 10000). */
  readonly timeoutMs?: number;
}

/** What `captureTool` captured: what `replay`, the matchers and `writeCaptureFile` take. */
export interface CapturedToolCall {
  readonly name: string;
  /** The tool's definition exactly as the server listed it (tools/list, every page). */
  readonly tool: ToolDefinition;
  /** The tools/call result exactly as the server sent it. */
  readonly result: ToolResult;
  /** The arguments the tool was called with; replay makes the same call. */
  readonly arguments: Readonly<Record<string, unknown>>;
  /** Who answered: the server's `serverInfo` from the handshake and the transport the capture used. */
  readonly server: { readonly name: string | undefined; readonly version: string | undefined; readonly transport: 'in-memory' | 'stdio' };
}

/** More pages than any real server lists; a cursor that never ends is a server bug, not a wait. */
const MAX_PAGES = 1000;
/** How much of a stdio server's stderr an error message quotes. */
const STDERR_TAIL = 2000;

const AnyObject = z.object({}).loose();

type Raw = { readonly result?: Record<string, unknown>; readonly error?: { readonly code: number; readonly message: string } };

/**
 * A rejection of the capture. Its message quotes the server (its stderr, its JSON-RPC error text, the
 * names it lists) and is read on a terminal, in a test runner's report: control characters in it are
 * shown as escapes (issue 20), in the message and so in the stack that repeats it.
 */
function captureError(message: string): Error {
  return new Error(terminalText(message));
}

function isStdio(source: object): source is StdioServerCommand {
  return typeof (source as { command?: unknown }).command === 'string';
}

/**
 * Records every response as it reaches the client, by request id, before the SDK parses it. Kept as JSON
 * text would carry it: the in-memory pair hands over the server's objects by reference, so a property
 * set to `undefined` (McpServer lists `title: undefined`) would otherwise survive that no wire carries.
 */
function tap(transport: Transport): Map<string | number, Raw> {
  const responses = new Map<string | number, Raw>();
  const receive = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage, extra) => {
    if ('id' in message && message.id !== undefined && ('result' in message || 'error' in message)) responses.set(message.id, JSON.parse(JSON.stringify(message)) as Raw);
    receive?.(message, extra);
  };
  return responses;
}

/** The id the client gives its next request: the tap sees every request go out and keeps the last one. */
function lastRequestId(transport: Transport): () => string | number | undefined {
  let last: string | number | undefined;
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if ('method' in message && 'id' in message) last = message.id;
    return send(message, options);
  };
  return () => last;
}

async function connectTo(source: ServerSource, what: string): Promise<{ transport: Transport; kind: 'in-memory' | 'stdio'; stderr: () => string }> {
  if (source !== null && typeof source === 'object' && isStdio(source)) {
    let stderr = '';
    const transport = new StdioClientTransport({
      command: source.command,
      args: [...(source.args ?? [])],
      ...(source.env !== undefined && { env: { ...source.env } }),
      ...(source.cwd !== undefined && { cwd: source.cwd }),
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
    return { transport, kind: 'stdio', stderr: () => stderr };
  }
  const server = typeof source === 'function' ? await source() : source;
  if (server === null || typeof server !== 'object' || typeof (server as { connect?: unknown }).connect !== 'function') {
    throw new InputError(terminalText(`${what}: server: expected an McpServer or Server instance (or a function returning one), or a stdio command { command, args }`));
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  try {
    await server.connect(serverSide as never);
  } catch (error) {
    throw new InputError(terminalText(`${what}: server: cannot connect it (${(error as Error).message}); pass a server that is not connected yet, or a function that makes one`));
  }
  return { transport: clientSide, kind: 'in-memory', stderr: () => '' };
}

/**
 * Connects to a server, lists its tools (every page), calls `toolName` with `args`, and returns the tool's
 * definition and the result as the server sent them, ready for `replay(…)`, the vitest matchers
 * (`await expect(await captureTool(…)).toBeReturnedBy(['v1', 'v2'])`) or `writeCaptureFile(…)`.
 * Rejects when the server cannot be reached, does not list the tool, or answers the call with a JSON-RPC
 * error (there is then no result for a client to treat).
 */
export async function captureTool(source: ServerSource, toolName: string, args: Readonly<Record<string, unknown>> = {}, options: CaptureOptions = {}): Promise<CapturedToolCall> {
  const what = `captureTool(${JSON.stringify(toolName)})`;
  if (typeof toolName !== 'string' || toolName === '') throw new InputError(terminalText(`${what}: toolName: expected the name of a listed tool`));
  const timeout = options.timeoutMs ?? 10_000;
  if (!Number.isInteger(timeout) || timeout <= 0) throw new InputError(terminalText(`${what}: timeoutMs: expected a positive integer, got ${String(options.timeoutMs)}`));
  const { transport, kind, stderr } = await connectTo(source, what);
  const client = new Client({ name: `${HARNESS.name}-capture`, version: HARNESS.version });
  const withStderr = (message: string) => (stderr().trim() ? `${message}; the server's stderr ends: ${stderr().trim()}` : message);
  try {
    try {
      await client.connect(transport, { timeout });
    } catch (error) {
      throw captureError(withStderr(`${what}: cannot connect to the server (${(error as Error).message})`));
    }
    const responses = tap(transport);
    const requested = lastRequestId(transport);
    /** One request; its raw response, or a rejection naming the method. */
    const exchange = async (method: 'tools/list' | 'tools/call', params: Record<string, unknown>): Promise<Raw> => {
      try {
        await client.request({ method, params } as never, AnyObject, { timeout });
      } catch (error) {
        const raw = responses.get(requested() ?? '');
        if (raw?.error) return raw;
        throw captureError(withStderr(`${what}: ${method} failed (${(error as Error).message})`));
      }
      const raw = responses.get(requested() ?? '');
      if (!raw) throw captureError(`${what}: ${method}: the client resolved the request but no response reached its transport`);
      return raw;
    };

    const listed: unknown[] = [];
    let cursor: string | undefined;
    for (let page = 1; ; page++) {
      if (page > MAX_PAGES) throw captureError(`${what}: tools/list: still paging after ${MAX_PAGES} pages (the server's nextCursor never ends)`);
      const raw = await exchange('tools/list', cursor === undefined ? {} : { cursor });
      if (raw.error) throw captureError(`${what}: tools/list answered a JSON-RPC error (${raw.error.code}: ${raw.error.message})`);
      const tools = raw.result?.tools;
      if (!Array.isArray(tools)) throw captureError(`${what}: tools/list page ${page}: the result has no tools array`);
      listed.push(...tools);
      const next = raw.result?.nextCursor;
      if (next === undefined || next === null) break;
      if (typeof next !== 'string') throw captureError(`${what}: tools/list page ${page}: nextCursor is not a string`);
      cursor = next;
    }
    const found = listed.filter((tool) => (tool as { name?: unknown } | null)?.name === toolName);
    if (found.length === 0) {
      const names = listed.map((tool) => JSON.stringify((tool as { name?: unknown } | null)?.name)).join(', ');
      throw captureError(`${what}: the server does not list the tool; tools/list lists ${names || 'no tools'}`);
    }
    if (found.length > 1) throw captureError(`${what}: tools/list lists ${found.length} tools of that name`);
    const tool = ToolDefinitionSchema.safeParse(found[0]);
    if (!tool.success) throw captureError(`${what}: the listed tool is not a valid definition: ${tool.error.issues[0]?.path.join('.') || '(top level)'}: ${tool.error.issues[0]?.message}`);

    const raw = await exchange('tools/call', { name: toolName, arguments: args });
    if (raw.error) {
      throw captureError(`${what}: tools/call answered a JSON-RPC error (${raw.error.code}: ${raw.error.message}), not a result a client could treat`);
    }
    const result = ToolResultSchema.safeParse(raw.result);
    if (!result.success || !Array.isArray(raw.result?.content)) throw captureError(`${what}: tools/call: the result has no content array`);
    const info = client.getServerVersion();
    // The values as listed and sent (zod's parse puts the known keys first; the capture keeps wire order).
    return {
      name: options.name ?? toolName,
      tool: found[0] as ToolDefinition,
      result: raw.result as ToolResult,
      arguments: args,
      server: { name: info?.name, version: info?.version, transport: kind },
    };
  } finally {
    // Closes the transport: in memory both ends (the server instance is disconnected and can connect
    // again); over stdio the child's stdin, then SIGTERM if it has not left within the SDK's 2 s.
    await client.close().catch(() => undefined);
  }
}

// The `ai-sdk` line: the Vercel AI SDK's MCP client (`@ai-sdk/mcp`), an implementation of the protocol of
// its own (no official SDK inside). Its application-facing call is not `callTool` but the AI SDK tool that
// `client.tools()` converts each MCP tool into: generateText runs that tool's `execute`, and what execute
// returns or throws is what the model is given. So besides `warm`/`cold` (its own `listTools`/`callTool`)
// the line has two discovery modes of its own: `tools-automatic` (`tools()`, schemas from the server) and
// `tools-with-schemas` (`tools({ schemas })` with the application's input and output schemas).
import type { Discovery, ToolDefinition } from '../core/domain.ts';
import type { ClientEndpoint } from '../core/endpoint.ts';
import type { ClientAdapter, ConnectedClient, LineDescription } from './adapter.ts';
import { CallWatch, CLIENT_INFO, importLinePackage, lazyAdapter, packageNameOf, watchedCall } from './adapter.ts';

type AiSdkMcp = typeof import('@ai-sdk/mcp');
type McpClient = Awaited<ReturnType<AiSdkMcp['createMCPClient']>>;
interface ConvertedTool {
  execute?: (args: unknown, options: { toolCallId: string; messages: unknown[]; abortSignal?: AbortSignal }) => unknown;
}

const AI_SDK_LINE: LineDescription = {
  line: 'ai-sdk',
  packageName: packageNameOf('ai-sdk'),
  transports: ['in-memory', 'http'],
  discoveries: ['warm', 'cold', 'all-pages', 'one-page', 'tools-automatic', 'tools-with-schemas'],
};

/**
 * The key under which an `execute` value that is not a CallToolResult is recorded: with an application
 * output schema, execute hands back the validated structuredContent itself (mcp-client.ts
 * `extractStructuredContent`), so the observation must not read it as a result's fields.
 */
const OUTPUT_KEY = 'output';

async function transportFor(endpoint: ClientEndpoint): Promise<Parameters<AiSdkMcp['createMCPClient']>[0]['transport']> {
  switch (endpoint.kind) {
    case 'in-memory':
      // The fixture's in-memory transport already is the object createMCPClient accepts as a custom
      // transport (start, send, close, onmessage, onclose, onerror), message objects passed by reference.
      return endpoint.transport as unknown as Parameters<AiSdkMcp['createMCPClient']>[0]['transport'];
    case 'http':
      return { type: 'http', url: endpoint.url };
    default:
      throw new TypeError(`the ai-sdk line has no ${endpoint.kind} transport in this probe`);
  }
}

/** The ai-sdk adapter over a loaded `@ai-sdk/mcp` module (the pinned one, or a swept release's). */
export function createAiSdkAdapter(mcp: AiSdkMcp): ClientAdapter {
  return {
    ...AI_SDK_LINE,
    async connect(endpoint) {
      const client: McpClient = await mcp.createMCPClient({
        transport: await transportFor(endpoint),
        clientName: CLIENT_INFO.name,
        version: CLIENT_INFO.version,
        // The audit's setting: the plain 2025-era initialize handshake, no server/discover probe first.
        protocolVersionDiscovery: false,
      });
      // The AI SDK's callTool is its tools/call request (mcp-client.ts callTool: `this.request` with retries,
      // no check before or after it); a converted tool's `execute` calls it as `self.callTool` and then,
      // with an application outputSchema, only `extractStructuredContent`. Its errors carry no code for a
      // closed connection, so whether the client had seen its transport close is read from the client's
      // own `isClosed`, which its `onClose` sets before it rejects every pending request.
      const watches = {
        request: new CallWatch(client, 'callTool'),
        connectionClosed: () => (client as unknown as { isClosed?: unknown }).isClosed === true,
      };
      let tools: Record<string, ConvertedTool> | undefined;
      let withSchemas = false;
      const connected: ConnectedClient = {
        listTools: async () => {
          await client.listTools();
        },
        listToolsPage: async (cursor) => {
          const page = await client.listTools(cursor === undefined ? {} : { params: { cursor } });
          return page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor };
        },
        async discover(mode: Discovery, tool: ToolDefinition) {
          if (mode === 'tools-automatic') {
            tools = (await client.tools()) as unknown as Record<string, ConvertedTool>;
          } else if (mode === 'tools-with-schemas') {
            // What an application supplies: zod schemas, here made from the tool's own JSON Schemas.
            const { z } = await import('zod');
            const schemas = {
              [tool.name]: {
                inputSchema: z.fromJSONSchema(tool.inputSchema as Parameters<typeof z.fromJSONSchema>[0]),
                ...(tool.outputSchema && { outputSchema: z.fromJSONSchema(tool.outputSchema as Parameters<typeof z.fromJSONSchema>[0]) }),
              },
            };
            tools = (await client.tools({ schemas: schemas as never })) as unknown as Record<string, ConvertedTool>;
            withSchemas = tool.outputSchema !== undefined;
          } else {
            throw new TypeError(`the ai-sdk line has no discovery mode ${mode}`);
          }
        },
        callTool: (name, args, options) => watchedCall(watches, async () => {
          if (options?.toolDefinition) throw new TypeError('the ai-sdk client cannot take a tool definition in callTool');
          const requestOptions = options?.timeoutMs !== undefined ? { options: { timeout: options.timeoutMs } } : {};
          if (tools === undefined) return client.callTool({ name, arguments: args, ...requestOptions });
          const converted = tools[name];
          if (converted?.execute === undefined) throw new TypeError(`the ai-sdk tools() set has no tool ${name}`);
          // As generateText calls it: the arguments and a tool call id; an application's time limit on a
          // tool is its abortSignal (execute takes no request timeout).
          const value = await converted.execute(args, {
            toolCallId: 'probe-call',
            messages: [],
            ...(options?.timeoutMs !== undefined && { abortSignal: AbortSignal.timeout(options.timeoutMs) }),
          });
          // execute returns the CallToolResult itself when isError is set or no output schema was given.
          const isResult = !withSchemas || (typeof value === 'object' && value !== null && (value as { isError?: unknown }).isError === true);
          return isResult ? value : { [OUTPUT_KEY]: value };
        }),
        close: () => client.close(),
      };
      return connected;
    },
  };
}

/** The pinned AI SDK MCP client, loaded on the first connect (see v1.ts). */
export const aiSdkAdapter = lazyAdapter(AI_SDK_LINE, () => importLinePackage('ai-sdk', () => import('@ai-sdk/mcp')), createAiSdkAdapter);

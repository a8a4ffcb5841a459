// The `langchain` line: LangChain's MCP adapters (`@langchain/mcp-adapters`), a host adapter over the
// official v1 client. `loadMcpTools` lists the tools through a v1 `Client` and turns each into a LangChain
// `DynamicStructuredTool` (responseFormat `content_and_artifact`); a LangChain agent invokes that tool
// with a tool call and is handed a `ToolMessage` (content, artifact, status) or the exception it throws
// (`ToolException`). That is this line's observation, one layer above what `callTool` returned. (A
// LangGraph `ToolNode` may turn the exception into an error ToolMessage; that is the agent's policy, not
// the adapter's, and is not observed here.)
import type { Discovery } from '../core/domain.ts';
import type { AnyClientClass, ClientAdapter, ConnectedClient, LineDescription } from './adapter.ts';
import { CallWatch, CLIENT_INFO, importLinePackage, isToolsCallRequest, lazyAdapter, packageNameOf, watchedCall, wrapClient } from './adapter.ts';
import { v1Transport } from './v1.ts';

type Adapters = typeof import('@langchain/mcp-adapters');
type LangChainTool = Awaited<ReturnType<Adapters['loadMcpTools']>>[number];

const LANGCHAIN_LINE: LineDescription = {
  line: 'langchain',
  packageName: packageNameOf('langchain'),
  transports: ['in-memory', 'stdio', 'http'],
  discoveries: ['load-tools'],
};

/** Where the ToolMessage's fields are recorded: it is not a CallToolResult, so none of them is read as one. */
const MESSAGE_KEY = 'toolMessage';
/** The server name loadMcpTools is given (it appears in the adapter's exception messages). */
const SERVER_NAME = 'probe';

function createLangChainAdapter({ loadMcpTools, Client }: { loadMcpTools: Adapters['loadMcpTools']; Client: AnyClientClass }): ClientAdapter {
  return {
    ...LANGCHAIN_LINE,
    async connect(endpoint) {
      const client = new Client(CLIENT_INFO);
      const transport = await v1Transport(endpoint);
      await client.connect(transport);
      let tools: LangChainTool[] | undefined;
      // LangChain's `_callTool` calls this client's `callTool` and wraps what it throws in a ToolException
      // that keeps only its text (`Error calling tool …: ${String(error)}`, tools.js), and throws its own
      // ToolException for an isError result (`_convertCallToolResult`). Watching the v1 call tells the two
      // apart and keeps the v1 error's class and code.
      const watches = { request: new CallWatch(client, 'request', isToolsCallRequest), clientCall: new CallWatch(client, 'callTool') };
      const base = wrapClient(client, transport, (name, args, options) => watchedCall(watches, async () => {
        if (tools === undefined) throw new TypeError('the langchain line calls a tool only after load-tools');
        const tool = tools.find((t) => t.name === name);
        if (!tool) throw new TypeError(`loadMcpTools gave no tool ${name}`);
        // As a LangChain agent invokes it: a tool call, so the tool answers with a ToolMessage.
        // A time limit is the invoke config's `timeout`, which the adapter hands to the v1 callTool.
        const config = options?.timeoutMs !== undefined ? { timeout: options.timeoutMs } : undefined;
        const message = (await tool.invoke({ name, args, id: 'probe-call', type: 'tool_call' }, config)) as {
          content: unknown;
          artifact?: unknown;
          status?: unknown;
        };
        return { [MESSAGE_KEY]: { content: message.content, artifact: message.artifact, status: message.status } };
      }));
      const connected: ConnectedClient = {
        ...base,
        async discover(mode: Discovery) {
          if (mode !== 'load-tools') throw new TypeError(`the langchain line has no discovery mode ${mode}`);
          tools = await loadMcpTools(SERVER_NAME, client as never);
        },
      };
      return connected;
    },
  };
}

/** The pinned adapters over the project's pinned v1 client, loaded on the first connect (see v1.ts). */
export const langChainAdapter = lazyAdapter(
  LANGCHAIN_LINE,
  async () => ({
    loadMcpTools: (await importLinePackage('langchain', () => import('@langchain/mcp-adapters'))).loadMcpTools,
    Client: (await import('@modelcontextprotocol/sdk/client/index.js')).Client as unknown as AnyClientClass,
  }),
  createLangChainAdapter,
);

import type { ClientEndpoint } from '../core/endpoint.ts';
import type { AnyClient, AnyClientClass, ClientAdapter, LineDescription } from './adapter.ts';
import { CallWatch, CLIENT_INFO, isToolsCallRequest, lazyAdapter, packageNameOf, watchedCall, wrapClient } from './adapter.ts';

/** The v2 line's own transports; in memory, the fixture's v1 linked pair (see below). */
async function v2Transport(endpoint: ClientEndpoint): Promise<unknown> {
  switch (endpoint.kind) {
    case 'in-memory':
      // Both lines' in-memory transports pass message objects by reference and share the Transport
      // contract, so the v2 client drives the fixture's v1 linked pair as its own.
      return endpoint.transport;
    case 'stdio': {
      const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
      return new StdioClientTransport({ command: endpoint.command, args: [...endpoint.args], env: endpoint.env, stderr: 'pipe' });
    }
    case 'http': {
      const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
      return new StreamableHTTPClientTransport(new URL(endpoint.url));
    }
    case 'fetch': {
      const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
      return new StreamableHTTPClientTransport(new URL(endpoint.url), { fetch: endpoint.fetch });
    }
  }
}

const V2_LINE: LineDescription = {
  line: 'v2',
  packageName: packageNameOf('v2'),
  transports: ['in-memory', 'stdio', 'http', 'http-in-process'],
  discoveries: ['warm', 'cold', 'definition', 'all-pages', 'one-page', 'changed'],
};

export function createV2Adapter(ClientClass: AnyClientClass): ClientAdapter {
  return {
    ...V2_LINE,
    async connect(endpoint) {
      const transport = await v2Transport(endpoint);
      let client: AnyClient;
      if (endpoint.kind === 'fetch' && endpoint.era === 'modern') {
        // Let the client discover the server and negotiate the 2026-07-28 era.
        client = new (ClientClass as unknown as new (info: typeof CLIENT_INFO, options: unknown) => AnyClient)(CLIENT_INFO, {
          versionNegotiation: { mode: 'auto' },
        });
        await client.connect(transport);
      } else {
        client = new ClientClass(CLIENT_INFO);
        // `prior: { kind: 'legacy' }` is the audit's setting: the plain 2025-era initialize handshake.
        await client.connect(transport, { prior: { kind: 'legacy' } });
      }
      const watches = { request: new CallWatch(client, 'request', isToolsCallRequest) };
      return wrapClient(client, transport, (name, args, options) =>
        watchedCall(watches, () => {
          const callOptions = {
            ...(options?.toolDefinition && { toolDefinition: options.toolDefinition }),
            ...(options?.timeoutMs !== undefined && { timeout: options.timeoutMs }),
          };
          return Object.keys(callOptions).length > 0 ? client.callTool({ name, arguments: args }, callOptions) : client.callTool({ name, arguments: args });
        }),
      );
    },
  };
}

/** The pinned v2 client, loaded on the first connect (see v1.ts). */
export const v2Adapter = lazyAdapter(V2_LINE, async () => (await import('@modelcontextprotocol/client')).Client as unknown as AnyClientClass, createV2Adapter);

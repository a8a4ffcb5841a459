import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ClientEndpoint } from '../core/endpoint.ts';
import type { AnyClientClass, ClientAdapter, LineDescription } from './adapter.ts';
import { CallWatch, CLIENT_INFO, isToolsCallRequest, lazyAdapter, packageNameOf, watchedCall, wrapClient } from './adapter.ts';

/** The v1 line's own transports (loaded only when a case uses them, to keep the audit's start-up lean). */
export async function v1Transport(endpoint: ClientEndpoint): Promise<Transport> {
  switch (endpoint.kind) {
    case 'in-memory':
      return endpoint.transport;
    case 'stdio': {
      const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
      return new StdioClientTransport({ command: endpoint.command, args: [...endpoint.args], env: endpoint.env, stderr: 'pipe' });
    }
    case 'http': {
      const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
      return new StreamableHTTPClientTransport(new URL(endpoint.url));
    }
    case 'fetch':
      // The 2026-07-28 era is a v2 feature; the extended matrix runs no v1 case against this fixture.
      throw new TypeError('the v1 client has no protocol-era negotiation to run against a createMcpHandler fixture');
  }
}

const V1_LINE: LineDescription = {
  line: 'v1',
  packageName: packageNameOf('v1'),
  transports: ['in-memory', 'stdio', 'http'],
  // No `definition`: v1's callTool cannot take a tool definition.
  discoveries: ['warm', 'cold', 'all-pages', 'one-page', 'changed'],
};

export function createV1Adapter(ClientClass: AnyClientClass): ClientAdapter {
  return {
    ...V1_LINE,
    async connect(endpoint) {
      const client = new ClientClass(CLIENT_INFO);
      const transport = await v1Transport(endpoint);
      await client.connect(transport);
      const watches = { request: new CallWatch(client, 'request', isToolsCallRequest) };
      return wrapClient(client, transport, (name, args, options) =>
        watchedCall(watches, async () => {
          // v1 has no way to hand callTool a tool definition; the extended matrix has no such v1 case.
          if (options?.toolDefinition) throw new TypeError('the v1 client cannot take a tool definition in callTool');
          if (options?.timeoutMs !== undefined) return client.callTool({ name, arguments: args }, undefined, { timeout: options.timeoutMs });
          return client.callTool({ name, arguments: args });
        }),
      );
    },
  };
}

/**
 * The pinned v1 client. Its module loads on the first connect, not at start-up: the CLI's main thread
 * only schedules cases (engine/pool.ts), and the SDK loads in the threads that run them.
 */
export const v1Adapter = lazyAdapter(V1_LINE, async () => (await import('@modelcontextprotocol/sdk/client/index.js')).Client as unknown as AnyClientClass, createV1Adapter);

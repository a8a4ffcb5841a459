import { Client } from '@modelcontextprotocol/client';
import type { AnyClientClass, ClientAdapter } from './adapter.ts';
import { CLIENT_INFO, packageNameOf } from './adapter.ts';

export function createV2Adapter(ClientClass: AnyClientClass): ClientAdapter {
  return {
    line: 'v2',
    packageName: packageNameOf('v2'),
    async connect(transport) {
      const client = new ClientClass(CLIENT_INFO);
      // The fixture is a v1 linked in-memory pair; both lines' in-memory transports pass message objects
      // by reference and share the Transport contract, so the v2 client can drive it as its own.
      // `prior: { kind: 'legacy' }` is the audit's setting: the plain 2025-era initialize handshake.
      await client.connect(transport, { prior: { kind: 'legacy' } });
      return {
        listTools: async () => {
          await client.listTools();
        },
        listToolsPage: async (cursor) => {
          const page = (await client.listTools(cursor === undefined ? undefined : { cursor })) as { nextCursor?: string };
          return page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor };
        },
        callTool: (name, args, options) => {
          const callOptions = {
            ...(options?.toolDefinition && { toolDefinition: options.toolDefinition }),
            ...(options?.timeoutMs !== undefined && { timeout: options.timeoutMs }),
          };
          return Object.keys(callOptions).length > 0 ? client.callTool({ name, arguments: args }, callOptions) : client.callTool({ name, arguments: args });
        },
        close: () => client.close(),
      };
    },
  };
}

export const v2Adapter = createV2Adapter(Client as unknown as AnyClientClass);

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { AnyClientClass, ClientAdapter } from './adapter.ts';
import { CLIENT_INFO, packageNameOf } from './adapter.ts';

export function createV1Adapter(ClientClass: AnyClientClass): ClientAdapter {
  return {
    line: 'v1',
    packageName: packageNameOf('v1'),
    async connect(transport) {
      const client = new ClientClass(CLIENT_INFO);
      await client.connect(transport);
      return {
        listTools: async () => {
          await client.listTools();
        },
        listToolsPage: async (cursor) => {
          const page = (await client.listTools(cursor === undefined ? undefined : { cursor })) as { nextCursor?: string };
          return page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor };
        },
        callTool: (name, args, options) => {
          // v1 has no way to hand callTool a tool definition; the extended matrix has no such v1 case.
          if (options?.toolDefinition) throw new TypeError('the v1 client cannot take a tool definition in callTool');
          if (options?.timeoutMs !== undefined) return client.callTool({ name, arguments: args }, undefined, { timeout: options.timeoutMs });
          return client.callTool({ name, arguments: args });
        },
        close: () => client.close(),
      };
    },
  };
}

export const v1Adapter = createV1Adapter(Client as unknown as AnyClientClass);

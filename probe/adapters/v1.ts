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
        callTool: (name, args) => client.callTool({ name, arguments: args }),
        close: () => client.close(),
      };
    },
  };
}

export const v1Adapter = createV1Adapter(Client as unknown as AnyClientClass);

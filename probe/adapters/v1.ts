import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ClientAdapter } from './adapter.ts';
import { CLIENT_INFO } from './adapter.ts';

export const v1Adapter: ClientAdapter = {
  line: 'v1',
  packageName: '@modelcontextprotocol/sdk',
  async connect(transport) {
    const client = new Client(CLIENT_INFO);
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

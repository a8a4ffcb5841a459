import { Client } from '@modelcontextprotocol/client';
import type { ClientAdapter } from './adapter.ts';
import { CLIENT_INFO } from './adapter.ts';

type V2Transport = Parameters<Client['connect']>[0];

export const v2Adapter: ClientAdapter = {
  line: 'v2',
  packageName: '@modelcontextprotocol/client',
  async connect(transport) {
    const client = new Client(CLIENT_INFO);
    // The fixture is a v1 linked in-memory pair; both lines' in-memory transports pass message objects
    // by reference and share the Transport contract, so the v2 client can drive it as its own.
    // `prior: { kind: 'legacy' }` is the audit's setting: the plain 2025-era initialize handshake.
    await client.connect(transport as unknown as V2Transport, { prior: { kind: 'legacy' } });
    return {
      listTools: async () => {
        await client.listTools();
      },
      callTool: (name, args) => client.callTool({ name, arguments: args }),
      close: () => client.close(),
    };
  },
};

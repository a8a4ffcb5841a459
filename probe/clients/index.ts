import type { ClientLine, ReleaseLine } from '../core/domain.ts';
import { clientClassOf, type ClientAdapter } from './adapter.ts';
import { aiSdkAdapter, createAiSdkAdapter } from './ai-sdk.ts';
import { langChainAdapter } from './langchain.ts';
import { createV1Adapter, v1Adapter } from './v1.ts';
import { createV2Adapter, v2Adapter } from './v2.ts';

export type { ClientAdapter, ClientUnderTest, ConnectedClient } from './adapter.ts';
export { CallRejected } from './adapter.ts';

/** Adapters over the project's own pinned clients: one row per client line. */
export const adapters = { v1: v1Adapter, v2: v2Adapter, 'ai-sdk': aiSdkAdapter, langchain: langChainAdapter } as const satisfies Record<ClientLine, ClientAdapter>;

/**
 * How each swept line's adapter is made from a release's module loaded at run time (`CLIENT_ENTRY`): the
 * SDK lines from its `Client` class, the ai-sdk line from the `@ai-sdk/mcp` module (`createMCPClient`).
 */
export const adapterFromModule = {
  v1: (module, what) => createV1Adapter(clientClassOf(module, what)),
  v2: (module, what) => createV2Adapter(clientClassOf(module, what)),
  'ai-sdk': (module, what) => {
    if (typeof (module as { createMCPClient?: unknown } | null)?.createMCPClient !== 'function') throw new TypeError(`${what} does not export createMCPClient`);
    return createAiSdkAdapter(module as Parameters<typeof createAiSdkAdapter>[0]);
  },
} as const satisfies Record<ReleaseLine, (module: unknown, what: string) => ClientAdapter>;

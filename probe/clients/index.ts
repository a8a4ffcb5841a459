import type { ClientLine, SdkLine } from '../core/domain.ts';
import type { AnyClientClass, ClientAdapter } from './adapter.ts';
import { aiSdkAdapter } from './ai-sdk.ts';
import { langChainAdapter } from './langchain.ts';
import { createV1Adapter, v1Adapter } from './v1.ts';
import { createV2Adapter, v2Adapter } from './v2.ts';

export type { AnyClientClass, ClientAdapter, ClientUnderTest, ConnectedClient } from './adapter.ts';
export { clientClassOf } from './adapter.ts';

/** Adapters over the project's own pinned clients: one row per client line. */
export const adapters = { v1: v1Adapter, v2: v2Adapter, 'ai-sdk': aiSdkAdapter, langchain: langChainAdapter } as const satisfies Record<ClientLine, ClientAdapter>;

/** Adapter factories, for SDK client releases loaded at run time. */
export const createAdapter = { v1: createV1Adapter, v2: createV2Adapter } as const satisfies Record<
  SdkLine,
  (Client: AnyClientClass) => ClientAdapter
>;

import type { ClientLine } from '../core/domain.ts';
import type { AnyClientClass, ClientAdapter } from './adapter.ts';
import { createV1Adapter, v1Adapter } from './v1.ts';
import { createV2Adapter, v2Adapter } from './v2.ts';

export type { AnyClientClass, ClientAdapter, ClientUnderTest, ConnectedClient } from './adapter.ts';
export { clientClassOf } from './adapter.ts';

/** Adapters over the project's own pinned clients. */
export const adapters = { v1: v1Adapter, v2: v2Adapter } as const satisfies Record<ClientLine, ClientAdapter>;

/** Adapter factories, for client releases loaded at run time. */
export const createAdapter = { v1: createV1Adapter, v2: createV2Adapter } as const satisfies Record<
  ClientLine,
  (Client: AnyClientClass) => ClientAdapter
>;

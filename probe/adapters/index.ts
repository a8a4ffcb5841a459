import type { ClientLine } from '../domain.ts';
import type { ClientAdapter } from './adapter.ts';
import { v1Adapter } from './v1.ts';
import { v2Adapter } from './v2.ts';

export type { ClientAdapter, ConnectedClient } from './adapter.ts';

export const adapters = { v1: v1Adapter, v2: v2Adapter } as const satisfies Record<ClientLine, ClientAdapter>;

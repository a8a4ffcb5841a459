// One adapter per client line, one shared interface. An adapter only drives its client and reports what
// happened; it never decides whether that was right (judge.ts does).
import type { ClientLine } from '../domain.ts';
import type { FixtureTransport } from '../fixture-server.ts';
import { HARNESS } from '../harness.ts';

export interface ConnectedClient {
  /** `tools/list`, which lets a client cache the tool's outputSchema validator. */
  listTools(): Promise<void>;
  /** The client's own `callTool`, resolving to whatever it hands back to the application. */
  callTool(name: string, args: Record<string, unknown>): Promise<unknown>;
  close(): Promise<void>;
}

export interface ClientAdapter {
  readonly line: ClientLine;
  /** npm name of the package that provides this line's `Client`. */
  readonly packageName: string;
  connect(transport: FixtureTransport): Promise<ConnectedClient>;
}

export const CLIENT_INFO = { name: HARNESS.name, version: HARNESS.version } as const;

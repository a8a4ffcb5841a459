// One adapter per client line, one shared interface. An adapter only drives its client and reports what
// happened; it never decides whether that was right (judge.ts does).
import type { ClientLine, ToolDefinition } from '../core/domain.ts';
import type { ClientEndpoint } from '../core/endpoint.ts';
import { HARNESS } from '../core/harness.ts';
import { CLIENT_PACKAGES } from './packages.ts';

export interface ConnectedClient {
  /** `tools/list` as an application calls it first, which lets a client cache the outputSchema validator. */
  listTools(): Promise<void>;
  /** One `tools/list` request with this cursor (v2 aggregates every page when there is none). */
  listToolsPage(cursor: string | undefined): Promise<{ nextCursor?: string }>;
  /** The client's own `callTool`, resolving to whatever it hands back to the application. */
  callTool(name: string, args: Record<string, unknown>, options?: CallOptions): Promise<unknown>;
  close(): Promise<void>;
  /** stdio: the server child's stderr, where the fixture reports what it sent. */
  readonly serverStderr?: NodeJS.ReadableStream | null;
}

export interface CallOptions {
  /** v2 only: `callTool(params, { toolDefinition })`, validation without tools/list. */
  readonly toolDefinition?: ToolDefinition;
  /** The client's own request timeout for this call. */
  readonly timeoutMs?: number;
}

export interface ClientAdapter {
  readonly line: ClientLine;
  /** npm name of the package that provides this line's `Client`. */
  readonly packageName: string;
  connect(endpoint: ClientEndpoint): Promise<ConnectedClient>;
}

/** The client a line's cases run against: the project's pinned one, or a release loaded at run time. */
export interface ClientUnderTest {
  readonly adapter: ClientAdapter;
  /** `<package>@<label>`, as case records name it. */
  readonly clientPackage: string;
}

export const CLIENT_INFO = { name: HARNESS.name, version: HARNESS.version } as const;

/**
 * The part of a `Client` class the adapters use, as every release of both lines has it. Releases are
 * loaded at run time (releases/cache.ts), so this is checked when a release loads, not at compile time.
 */
export interface AnyClient {
  connect(transport: unknown, options?: unknown): Promise<void>;
  listTools(params?: unknown): Promise<unknown>;
  callTool(params: { name: string; arguments: Record<string, unknown> }, ...rest: unknown[]): Promise<unknown>;
  close(): Promise<void>;
}
export type AnyClientClass = new (info: typeof CLIENT_INFO) => AnyClient;

/** Throws when a loaded module does not export a usable `Client` class (an unloadable release). */
export function clientClassOf(module: unknown, what: string): AnyClientClass {
  const Client = (module as { Client?: unknown } | null)?.Client;
  if (typeof Client !== 'function') throw new TypeError(`${what} does not export a Client class`);
  for (const method of ['connect', 'listTools', 'callTool', 'close']) {
    if (typeof (Client.prototype as Record<string, unknown>)[method] !== 'function') {
      throw new TypeError(`${what}: Client has no ${method}() method`);
    }
  }
  return Client as AnyClientClass;
}

/** The part of a connected client both lines share; only the call itself differs between them. */
export function wrapClient(client: AnyClient, transport: unknown, callTool: ConnectedClient['callTool']): ConnectedClient {
  const stderr = transport !== null && typeof transport === 'object' && 'stderr' in transport ? transport.stderr : undefined;
  return {
    serverStderr: stderr as NodeJS.ReadableStream | null | undefined,
    listTools: async () => {
      await client.listTools();
    },
    listToolsPage: async (cursor) => {
      const page = (await client.listTools(cursor === undefined ? undefined : { cursor })) as { nextCursor?: string };
      return page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor };
    },
    callTool,
    close: () => client.close(),
  };
}

/** An adapter whose `Client` class is imported on the first connect, once. */
export function lazyAdapter(line: ClientLine, load: () => Promise<AnyClientClass>, create: (Client: AnyClientClass) => ClientAdapter): ClientAdapter {
  let loaded: Promise<ClientAdapter> | undefined;
  return {
    line,
    packageName: packageNameOf(line),
    connect: async (endpoint) => (await (loaded ??= load().then(create))).connect(endpoint),
  };
}

export function packageNameOf(line: ClientLine): string {
  return CLIENT_PACKAGES[line];
}

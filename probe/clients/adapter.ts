// One adapter per client line, one shared interface. An adapter only drives its client and reports what
// happened; it never decides whether that was right (judge.ts does).
//
// A client line is one file here: its name, its package, the transports it can reach a fixture over, the
// discovery modes it has (the shared ones it supports and its own, such as the AI SDK's `tools()`), and
// `connect`, which hands back a ConnectedClient whose `callTool` resolves to what the line's application
// receives. Registering the line is one row in index.ts; its package pin is one row in packages.ts.
import type { ClientLine, Discovery, ToolDefinition, TransportKind } from '../core/domain.ts';
import type { ClientEndpoint } from '../core/endpoint.ts';
import { HARNESS } from '../core/harness.ts';
import { rejectionFacts, type CallStage, type RejectionFacts } from '../core/rejected-by.ts';
import { CLIENT_PACKAGES, LINE_PINS } from './packages.ts';

export interface ConnectedClient {
  /** `tools/list` as an application calls it first, which lets a client cache the outputSchema validator. */
  listTools(): Promise<void>;
  /** One `tools/list` request with this cursor (v2 aggregates every page when there is none). */
  listToolsPage(cursor: string | undefined): Promise<{ nextCursor?: string }>;
  /**
   * The call as the line's application makes it, resolving to whatever the application is handed: the
   * SDK's `callTool` result; after one of the line's own discovery modes, what its converted tool returns.
   * It rejects with a `CallRejected`: what the application was thrown, and where it was thrown.
   */
  callTool(name: string, args: Record<string, unknown>, options?: CallOptions): Promise<unknown>;
  /**
   * The line's own discovery modes (those in `discoveries` that engine/observe.ts does not drive through
   * `listTools`), run before `callTool` with the tool the case is about.
   */
  discover?(mode: Discovery, tool: ToolDefinition): Promise<void>;
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

/** What a line is, known before its package loads. */
export interface LineDescription {
  readonly line: ClientLine;
  /** npm name of the package that provides this line's client. */
  readonly packageName: string;
  /** How the line can reach a fixture server (a case over any other transport is not defined for it). */
  readonly transports: readonly TransportKind[];
  /** The discovery modes the line has: the shared ones it supports (`warm`, `cold`, …) and its own. */
  readonly discoveries: readonly Discovery[];
}

export interface ClientAdapter extends LineDescription {
  connect(endpoint: ClientEndpoint): Promise<ConnectedClient>;
  /**
   * Loads the line's package now rather than on the first connect, so the load is not inside a case's
   * time limit (LangChain's takes about a second; a fault case waits 500 ms).
   */
  preload?(): Promise<void>;
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

/**
 * What a line's call threw (`thrown`, exactly what the application gets) and the structural facts of
 * where it was thrown (core/rejected-by.ts classifies who rejected from these, never from a message).
 */
export class CallRejected extends Error {
  constructor(
    readonly thrown: unknown,
    readonly facts: RejectionFacts,
  ) {
    super('the call rejected');
    this.name = 'CallRejected';
  }
}

type Settled = 'not-made' | 'resolved' | 'rejected';
const STAGE_OF: Record<Settled, CallStage> = { 'not-made': 'before-request', rejected: 'request', resolved: 'after-request' };

/**
 * Watches how one method of a client settles on each call, passing its arguments, its value and its error
 * through unchanged: the SDK clients' `request` (their callTool awaits `this.request` between its
 * pre-checks and its outputSchema check), the AI SDK's `callTool` (its converted tools call it as
 * `self.callTool`), the v1 client's `callTool` under LangChain's tools.
 */
export class CallWatch {
  settled: Settled = 'not-made';
  thrown: unknown;

  constructor(client: object, method: 'request' | 'callTool', isWatched: (args: unknown[]) => boolean = () => true) {
    const target = client as Record<string, unknown>;
    const original = target[method];
    if (typeof original !== 'function') throw new TypeError(`the client has no ${method}() method`);
    const rejected = (error: unknown) => {
      this.settled = 'rejected';
      this.thrown = error;
    };
    target[method] = (...args: unknown[]): unknown => {
      if (!isWatched(args)) return original.apply(client, args);
      let pending: unknown;
      try {
        pending = original.apply(client, args);
      } catch (error) {
        rejected(error);
        throw error;
      }
      return Promise.resolve(pending).then(
        (value: unknown) => {
          this.settled = 'resolved';
          return value;
        },
        (error: unknown) => {
          rejected(error);
          throw error;
        },
      );
    };
  }

  reset(): void {
    this.settled = 'not-made';
    this.thrown = undefined;
  }
}

export interface CallWatches {
  /** The client's tools/call request: where, relative to it, the client threw. */
  readonly request: CallWatch;
  /**
   * A framework over the client (LangChain): the client's whole call, so that a throw after it resolved
   * is the framework's conversion, and the client's own error under the framework's is the one classified.
   */
  readonly clientCall?: CallWatch;
  /** Whether the client had seen its connection close (read when the call rejects). */
  readonly connectionClosed?: () => boolean;
}

/** Runs one call of a line; a rejection becomes a CallRejected with where it was thrown. */
export async function watchedCall<T>(watches: CallWatches, call: () => Promise<T>): Promise<T> {
  watches.request.reset();
  watches.clientCall?.reset();
  try {
    return await call();
  } catch (thrown) {
    const extra = { connectionClosed: watches.connectionClosed?.() === true };
    const { clientCall } = watches;
    const facts =
      clientCall === undefined || clientCall.settled === 'not-made'
        ? rejectionFacts(thrown, STAGE_OF[watches.request.settled], extra)
        : clientCall.settled === 'rejected'
          ? rejectionFacts(clientCall.thrown, STAGE_OF[watches.request.settled], extra)
          : rejectionFacts(thrown, 'conversion', extra);
    throw new CallRejected(thrown, facts);
  }
}

/** The SDK clients' `request(request, …)`: is this the tools/call request? */
export const isToolsCallRequest = (args: unknown[]): boolean => (args[0] as { method?: unknown } | null | undefined)?.method === 'tools/call';

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

/** An adapter whose package is imported on the first connect, once. */
export function lazyAdapter<T>(description: LineDescription, load: () => Promise<T>, create: (loaded: T) => ClientAdapter): ClientAdapter {
  let loaded: Promise<ClientAdapter> | undefined;
  const adapter = () => (loaded ??= load().then(create));
  return {
    ...description,
    connect: async (endpoint) => (await adapter()).connect(endpoint),
    preload: async () => {
      await adapter();
    },
  };
}

/**
 * Imports an ecosystem line's package. These are optional for an installed probe (optional
 * peerDependencies), so a missing one is a one-line message naming what to install.
 */
export async function importLinePackage<T>(line: keyof typeof LINE_PINS, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    const pins = Object.entries(LINE_PINS[line]).map(([name, version]) => `${name}@${version}`);
    throw new Error(`the ${line} client line needs ${pins.join(' ')}: npm install --save-dev ${pins.join(' ')}`, { cause: error });
  }
}

export function packageNameOf(line: ClientLine): string {
  return CLIENT_PACKAGES[line];
}

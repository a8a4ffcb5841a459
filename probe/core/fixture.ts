// Facts about a case's server, derived once from its scenario: what the server's handler was given to
// answer with (the one answer to "what did the server send" for every fixture kind), and which fixture
// it was. The engine writes them into the record; fixtures and renderers read them from there.
import type { Fixture, SdkLine, Scenario, ServerBehaviour, ToolResult, TransportKind } from './domain.ts';
import { SERVER_PACKAGES } from './release.ts';

/** The result the server's handler is given to answer tools/call with; null when it answers with none. */
export function givenResult(server: ServerBehaviour): ToolResult | null {
  switch (server.kind) {
    case 'respond':
    case 'wrong-id':
    case 'v2-handler':
      return server.result;
    case 'helper':
      return server.result === 'throw' ? null : server.result;
    case 'hang':
    case 'close':
    case 'malformed':
    case 'throw':
      return null;
  }
}

/** How the client reached the server: the v2 handler is reached over HTTP in process, the rest as the scenario says. */
export function transportOf(scenario: Pick<Scenario, 'server' | 'transport'>): TransportKind {
  if (scenario.server.kind === 'v2-handler') return 'http-in-process';
  return scenario.transport ?? 'in-memory';
}

export function fixtureOf(server: ServerBehaviour): Fixture {
  switch (server.kind) {
    case 'respond':
      return {
        server: 'v1-low-level',
        answer: 'result',
        registration: server.registration ?? 'wrapped',
        ...(server.paginate === true && { paginated: true as const }),
        ...(server.changeTo && { changesTo: server.changeTo }),
      };
    case 'hang':
      return { server: 'v1-low-level', answer: 'hang', registration: 'wrapped' };
    case 'close':
      return { server: 'v1-low-level', answer: 'close', registration: 'wrapped' };
    case 'malformed':
      return { server: 'v1-low-level', answer: 'malformed', registration: 'wrapped' };
    case 'wrong-id':
      return { server: 'v1-low-level', answer: 'wrong-id', registration: 'wrapped' };
    case 'throw':
      return { server: 'v1-low-level', answer: 'throw', registration: 'wrapped' };
    case 'v2-handler':
      return { server: 'v2-handler', answer: 'result', era: server.era };
    case 'helper':
      return { server: server.helper, answer: server.result === 'throw' ? 'throw' : 'result' };
  }
}

/** The npm package each fixture server comes from (its version is in the result's environment block). */
export const FIXTURE_PACKAGES = {
  'v1-low-level': '@modelcontextprotocol/sdk',
  'v1-mcp-server': '@modelcontextprotocol/sdk',
  'v2-mcp-server': '@modelcontextprotocol/server',
  'v2-handler': '@modelcontextprotocol/server',
} as const satisfies Record<Fixture['server'], string>;

/**
 * A server package of another release, for a server-side sweep (`--server-v1`/`--server-v2`): the fixtures
 * load their server classes through it instead of importing the pinned install. Absent: the pinned one.
 */
export interface ServerSource {
  /** Which server package: v1 `@modelcontextprotocol/sdk`, v2 `@modelcontextprotocol/server` (SERVER_PACKAGES). */
  readonly line: SdkLine;
  readonly label: string;
  /** A module of the release by its subpath below the package (`server/index.js`; '' for the main entry). */
  module(subpath: string): Promise<unknown>;
  /** A dependency as the release itself resolves it (the helpers build their schemas with the release's zod). */
  dependency(name: string): Promise<unknown>;
}

/**
 * The modules of each line's server package the fixtures load (ServerSource.module). A server sweep's
 * worker loads them before its cases run, so the first case does not pay for the import within its time
 * limit (a client release is loaded before its cases the same way); one that fails to load is left to the
 * case that needs it, which records the error.
 */
export const SERVER_SUBPATHS = {
  v1: ['server/index.js', 'shared/protocol.js', 'types.js', 'server/mcp.js', 'server/streamableHttp.js'],
  v2: [''],
} as const satisfies Record<SdkLine, readonly string[]>;

/**
 * Why a case is left out of a server sweep of one line: its fixture is another package's, or it is the
 * stdio child (a separate bundled process that always runs the pinned server).
 */
export type ServerSweepExclusion = 'other-package' | 'stdio-child';

/** Whether a server sweep of `line`'s package varies this case's fixture, and if not, why. */
export function serverSweepExclusion(scenario: Pick<Scenario, 'server' | 'transport'>, line: SdkLine): ServerSweepExclusion | null {
  if (FIXTURE_PACKAGES[fixtureOf(scenario.server).server] !== SERVER_PACKAGES[line]) return 'other-package';
  if (transportOf(scenario) === 'stdio') return 'stdio-child';
  return null;
}

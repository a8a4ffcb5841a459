// Facts about a case's server, derived once from its scenario: what the server's handler was given to
// answer with (the one answer to "what did the server send" for every fixture kind), and which fixture
// it was. The engine writes them into the record; fixtures and renderers read them from there.
import type { Fixture, Scenario, ServerBehaviour, ToolResult, TransportKind } from './domain.ts';

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

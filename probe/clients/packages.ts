// Which npm package provides each client line, and where below it the `Client` class is exported.
import type { ClientLine, ReleaseLine } from '../core/domain.ts';

/** The npm package that provides each client line's client. */
export const CLIENT_PACKAGES = {
  v1: '@modelcontextprotocol/sdk',
  v2: '@modelcontextprotocol/client',
  'ai-sdk': '@ai-sdk/mcp',
  langchain: '@langchain/mcp-adapters',
} as const satisfies Record<ClientLine, string>;

/**
 * The exact release each ecosystem line is pinned to, and the packages it needs beside it (LangChain's
 * adapters take `@langchain/core` and `@langchain/langgraph` as peers). The same versions are the
 * project's exact devDependencies and optional peerDependencies (test/ecosystem.test.ts checks they
 * agree): a checkout's `npm ci` has them, an installed probe asks for them only when a line runs.
 * The SDK lines are the probe's own dependencies and need no entry here.
 */
export const LINE_PINS = {
  'ai-sdk': { '@ai-sdk/mcp': '2.0.99' },
  langchain: { '@langchain/mcp-adapters': '1.1.4', '@langchain/core': '1.4.0', '@langchain/langgraph': '1.7.3' },
} as const satisfies Partial<Record<ClientLine, Record<string, string>>>;

/**
 * Peer packages a swept release needs beside it in the release cache (installed once at its root, where
 * every release's imports find them). `@ai-sdk/mcp` imports `zod` as a peer (`^3.25.76 || ^4.1.8`), which
 * the cache's `--legacy-peer-deps` install does not add: without it every release fails to load. The
 * version is the project's own zod (package.json; test/ai-sdk-sweep.test.ts checks they agree).
 */
export const RELEASE_PEERS = {
  'ai-sdk': { zod: '4.6.7' },
} as const satisfies Partial<Record<ReleaseLine, Record<string, string>>>;

/**
 * The module specifier (below the package) a swept release is loaded from: the SDK lines' `Client` class,
 * `@ai-sdk/mcp`'s package root (its `createMCPClient`).
 */
export const CLIENT_ENTRY = {
  v1: 'client/index.js',
  v2: '',
  'ai-sdk': '',
} as const satisfies Record<ReleaseLine, string>;

// Which npm package provides each client line, and where below it the `Client` class is exported.
import type { ClientLine } from '../core/domain.ts';

/** The npm package that provides each client line's `Client`. */
export const CLIENT_PACKAGES = {
  v1: '@modelcontextprotocol/sdk',
  v2: '@modelcontextprotocol/client',
} as const satisfies Record<ClientLine, string>;

/** The module specifier (below the package) that exports each line's `Client`. */
export const CLIENT_ENTRY = {
  v1: 'client/index.js',
  v2: '',
} as const satisfies Record<ClientLine, string>;

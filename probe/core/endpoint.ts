// How a client reaches a fixture server: the contract between fixtures/ (which make endpoints) and
// clients/ (which connect to them), so neither of those folders imports the other.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

export type ClientEndpoint =
  | { readonly kind: 'in-memory'; readonly transport: Transport }
  /** A Streamable HTTP endpoint served by a fetch function in this process; `era` is what the client negotiates. */
  | { readonly kind: 'fetch'; readonly url: string; readonly fetch: (url: string | URL, init?: RequestInit) => Promise<Response>; readonly era: 'modern' | 'legacy' }
  | { readonly kind: 'stdio'; readonly command: string; readonly args: readonly string[]; readonly env: Record<string, string> }
  | { readonly kind: 'http'; readonly url: string };

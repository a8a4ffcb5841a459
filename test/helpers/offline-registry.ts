// An unreachable registry and a release cache whose cached version lists are fixed: the probe falls back
// to `<cache>/registry/<package>.json` when `npm view` fails (probe/releases/registry.ts), so `latest`
// and ranges resolve the same way every day, with no network.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A closed loopback port: npm fails fast on a refused connection. */
export const UNREACHABLE_REGISTRY = 'http://127.0.0.1:9/';

/** The published versions as of 2026-11 (the day these tests were written); the pinned clients are the newest. */
export const PUBLISHED = {
  '@modelcontextprotocol/sdk': {
    versions: '0.4.0 0.5.0 0.6.0 0.6.1 0.7.0 1.0.0 1.0.1 1.0.2 1.0.3 1.0.4 1.1.0 1.1.1 1.2.0 1.3.0 1.3.1 1.3.2 1.4.0 1.4.1 1.5.0 1.6.0 1.6.1 1.7.0 1.8.0 1.9.0 1.10.0 1.10.1 1.10.2 1.11.0 1.11.1 1.11.2 1.11.3 1.11.4 1.11.5 1.12.0 1.12.1 1.12.2 1.12.3 1.13.0 1.13.1 1.13.2 1.13.3 1.14.0 1.15.0 1.15.1 1.16.0 1.17.0 1.17.1 1.17.2 1.17.3 1.17.4 1.17.5 1.18.0 1.18.1 1.18.2 1.19.1 1.20.0 1.20.1 1.20.2 1.21.0 1.21.1 1.21.2 1.22.0 1.23.0-beta.0 1.23.0 1.23.1 1.24.0 1.24.1 1.24.2 1.24.3 1.25.0 1.25.1 1.25.2 1.25.3 1.26.0 1.27.0 1.27.1 1.28.0 1.29.0 1.30.0 1.30.1 1.31.0 1.32.0 1.32.1 1.32.2',
    latest: '1.32.2',
  },
  '@modelcontextprotocol/client': {
    versions: '2.0.0-alpha.2 2.0.0-alpha.3 2.0.0-beta.1 2.0.0-beta.2 2.0.0-beta.3 2.0.0-beta.4 2.0.0-beta.5 2.0.0 2.1.0 2.2.0 2.3.0 2.3.1 2.4.0',
    latest: '2.4.0',
  },
  // The v2 server package, for server sweeps (--server-v2); its pinned 2.4.0 is the newest.
  '@modelcontextprotocol/server': {
    versions: '2.0.0-alpha.2 2.0.0-alpha.3 2.0.0-alpha.4 2.0.0-beta.1 2.0.0-beta.2 2.0.0-beta.3 2.0.0-beta.4 2.0.0-beta.5 2.0.0 2.1.0 2.2.0 2.3.0 2.3.1 2.4.0',
    latest: '2.4.0',
  },
} as const;

/** A fresh release cache holding only the cached version lists; pass it as MCP_SDK_PROBE_CACHE. */
export function seededCache(): string {
  const cache = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-cache-'));
  mkdirSync(join(cache, 'registry'));
  for (const [packageName, { versions, latest }] of Object.entries(PUBLISHED)) {
    const file = join(cache, 'registry', `${packageName.replace('/', '__')}.json`);
    writeFileSync(file, `${JSON.stringify({ packageName, versions: versions.split(' '), latest })}\n`);
  }
  return cache;
}

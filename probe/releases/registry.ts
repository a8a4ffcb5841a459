// The list of published versions of a client package, from the registry npm is configured to use (so
// mirrors and auth work as they do for npm itself), kept in the cache so offline runs can still resolve.
// A list the registry gave less than MCP_SDK_PROBE_VERSIONS_MAX_AGE seconds ago (default an hour) is the
// answer without asking again: a warm sweep then needs no network at all (`npm view` costs seconds).
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { InputError } from '../core/errors.ts';
import { makeFolder, writeFileAtomic } from '../io/files.ts';
import { jsonText } from '../io/json-files.ts';
import type { PublishedVersions } from './spec.ts';

const NpmViewSchema = z.object({
  versions: z.union([z.array(z.string()), z.string()]),
  'dist-tags': z.object({ latest: z.string() }).loose(),
});

export type VersionsSource = 'registry' | 'cache';

/** The cached list: what `npm view` said, and when (ms since the epoch; absent in lists written before). */
interface CachedVersions extends PublishedVersions {
  readonly fetchedAt?: number;
}

const DEFAULT_VERSIONS_MAX_AGE_S = 3600;

/** MCP_SDK_PROBE_VERSIONS_MAX_AGE (whole seconds, 0: always ask the registry) in milliseconds. */
export function versionsMaxAgeMs(env: Readonly<Record<string, string | undefined>>): number {
  const text = env.MCP_SDK_PROBE_VERSIONS_MAX_AGE;
  if (text === undefined || text === '') return DEFAULT_VERSIONS_MAX_AGE_S * 1000;
  if (!/^\d{1,9}$/.test(text.trim())) throw new InputError(`MCP_SDK_PROBE_VERSIONS_MAX_AGE=${text}: expected whole seconds (0 always asks the registry)`);
  return Number(text.trim()) * 1000;
}

function cacheFile(cacheDir: string, packageName: string): string {
  return join(cacheDir, 'registry', `${packageName.replace('/', '__')}.json`);
}

function npmView(packageName: string): Promise<PublishedVersions> {
  return new Promise((resolve, reject) => {
    execFile(
      'npm',
      // Few, short retries: an unreachable registry falls back to the cached list in seconds, not after
      // npm's default minute of retries.
      ['view', packageName, 'versions', 'dist-tags', '--json', '--fetch-retries=1', '--fetch-retry-mintimeout=1000', '--fetch-retry-maxtimeout=5000'],
      { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(stderr.trim().split('\n').find((line) => line.includes('error')) ?? error.message));
        try {
          const parsed = NpmViewSchema.parse(JSON.parse(stdout));
          const versions = typeof parsed.versions === 'string' ? [parsed.versions] : parsed.versions;
          resolve({ packageName, versions, latest: parsed['dist-tags'].latest });
        } catch (parseError) {
          reject(parseError as Error);
        }
      },
    );
  });
}

function readCachedVersions(cacheDir: string, packageName: string): CachedVersions | undefined {
  try {
    const cached = JSON.parse(readFileSync(cacheFile(cacheDir, packageName), 'utf8')) as CachedVersions;
    return cached.packageName === packageName && Array.isArray(cached.versions) ? cached : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Published versions: the cached list while it is younger than `maxAgeMs`, else from the registry (and
 * cached, with the time); the cached list whatever its age when the registry cannot be reached.
 * `ageMs` says how old a list given from the cache without asking is.
 */
export async function publishedVersions(
  cacheDir: string,
  packageName: string,
  flag: string,
  maxAgeMs = 0,
  now = Date.now(),
): Promise<{ published: PublishedVersions; source: VersionsSource; ageMs?: number; warning?: string }> {
  const cached = readCachedVersions(cacheDir, packageName);
  const ageMs = cached?.fetchedAt === undefined ? undefined : now - cached.fetchedAt;
  // A time in the future (a clock set back) is no evidence of freshness.
  if (cached && ageMs !== undefined && ageMs >= 0 && ageMs < maxAgeMs) {
    return { published: { packageName, versions: cached.versions, latest: cached.latest }, source: 'cache', ageMs };
  }
  try {
    const published = await npmView(packageName);
    makeFolder(join(cacheDir, 'registry'), `the release cache ${cacheDir}`);
    writeFileAtomic(cacheFile(cacheDir, packageName), `${jsonText({ ...published, fetchedAt: now } satisfies CachedVersions)}\n`);
    return { published, source: 'registry' };
  } catch (error) {
    const reason = (error as Error).message.split('\n')[0];
    if (!cached) {
      throw new InputError(`${flag}: cannot list the published versions of ${packageName} (${reason}) and none are cached; name an installed version or a local build`);
    }
    return { published: { packageName, versions: cached.versions, latest: cached.latest }, source: 'cache', warning: `${packageName}: registry unreachable (${reason}); resolving against the cached version list` };
  }
}

// The list of published versions of a client package, from the registry npm is configured to use (so
// mirrors and auth work as they do for npm itself), kept in the cache so offline runs can still resolve.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { InputError } from '../core/errors.ts';
import { makeFolder, writeFileAtomic } from '../io/files.ts';
import type { PublishedVersions } from './spec.ts';

const NpmViewSchema = z.object({
  versions: z.union([z.array(z.string()), z.string()]),
  'dist-tags': z.object({ latest: z.string() }).loose(),
});

export type VersionsSource = 'registry' | 'cache';

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

export function readCachedVersions(cacheDir: string, packageName: string): PublishedVersions | undefined {
  try {
    const cached = JSON.parse(readFileSync(cacheFile(cacheDir, packageName), 'utf8')) as PublishedVersions;
    return cached.packageName === packageName && Array.isArray(cached.versions) ? cached : undefined;
  } catch {
    return undefined;
  }
}

/** Published versions from the registry; the cached list when the registry cannot be reached. */
export async function publishedVersions(
  cacheDir: string,
  packageName: string,
  flag: string,
): Promise<{ published: PublishedVersions; source: VersionsSource; warning?: string }> {
  try {
    const published = await npmView(packageName);
    makeFolder(join(cacheDir, 'registry'), `the release cache ${cacheDir}`);
    writeFileAtomic(cacheFile(cacheDir, packageName), `${JSON.stringify(published)}\n`);
    return { published, source: 'registry' };
  } catch (error) {
    const cached = readCachedVersions(cacheDir, packageName);
    const reason = (error as Error).message.split('\n')[0];
    if (!cached) {
      throw new InputError(`${flag}: cannot list the published versions of ${packageName} (${reason}) and none are cached; name an installed version or a local build`);
    }
    return { published: cached, source: 'cache', warning: `${packageName}: registry unreachable (${reason}); resolving against the cached version list` };
  }
}

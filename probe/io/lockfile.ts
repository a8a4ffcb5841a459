// npm's lockfiles (package-lock.json, node_modules/.package-lock.json): the one reader of the integrity
// hashes they record, for the project's own install, the release cache and the environment block.
import { readFileSync, statSync } from 'node:fs';

type LockedPackages = Readonly<Record<string, { readonly integrity?: string }>>;

// A sweep asks the release cache's lockfile once per release (65 parses of the same file); the parsed
// map is kept while the file's size and modification time stay the same (an install rewrites it).
const parsed = new Map<string, { readonly stamp: string; readonly packages: LockedPackages }>();

/** The `packages` map of a lockfile; empty when there is none or it cannot be read (integrity unknown). */
export function readLockedPackages(lockPath: string): LockedPackages {
  try {
    const stats = statSync(lockPath);
    const stamp = `${stats.size}:${stats.mtimeMs}`;
    const kept = parsed.get(lockPath);
    if (kept?.stamp === stamp) return kept.packages;
    const packages = (JSON.parse(readFileSync(lockPath, 'utf8')) as { packages?: LockedPackages }).packages ?? {};
    parsed.set(lockPath, { stamp, packages });
    return packages;
  } catch {
    return {};
  }
}

/** npm's SRI hash of the package installed at `installPath` (`node_modules/<name>`), or null when unknown. */
export function lockedIntegrity(lockPath: string, installPath: string): string | null {
  return readLockedPackages(lockPath)[installPath]?.integrity ?? null;
}

// npm's lockfiles (package-lock.json, node_modules/.package-lock.json): the one reader of the integrity
// hashes they record, for the project's own install, the release cache and the environment block.
import { readFileSync } from 'node:fs';

type LockedPackages = Readonly<Record<string, { readonly integrity?: string }>>;

/** The `packages` map of a lockfile; empty when there is none or it cannot be read (integrity unknown). */
export function readLockedPackages(lockPath: string): LockedPackages {
  try {
    return (JSON.parse(readFileSync(lockPath, 'utf8')) as { packages?: LockedPackages }).packages ?? {};
  } catch {
    return {};
  }
}

/** npm's SRI hash of the package installed at `installPath` (`node_modules/<name>`), or null when unknown. */
export function lockedIntegrity(lockPath: string, installPath: string): string | null {
  return readLockedPackages(lockPath)[installPath]?.integrity ?? null;
}

// Where a result was observed. Versions are read from the packages actually installed (what ran), never
// from package.json ranges (what was asked for).
import { readFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Environment } from '../core/domain.ts';
import { lockedIntegrity } from './lockfile.ts';
import { HARNESS } from '../core/harness.ts';

export interface InstalledPackage {
  readonly name: string;
  readonly version: string;
  /** Folder of the installed package; never written into results (it is an absolute path). */
  readonly dir: string;
}

/**
 * Finds the folder Node would load `name` from when imported by `fromFile` (the nearest
 * `node_modules/<name>` walking up), and reads its package.json. Resolving an entry point instead would
 * depend on each package's `exports` (the v1 SDK's "." entry does not even exist on disk).
 */
export function readInstalledPackage(name: string, fromFile: string = import.meta.url): InstalledPackage {
  const start = fromFile.startsWith('file:') ? fileURLToPath(fromFile) : fromFile;
  for (let dir = dirname(start); ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    const manifest = readManifest(join(candidate, 'package.json'));
    if (manifest?.name === name && typeof manifest.version === 'string') {
      return { name, version: manifest.version, dir: candidate };
    }
    if (dirname(dir) === dir) throw new Error(`package ${name} is not installed (looked upward from ${start})`);
  }
}

function readManifest(path: string): { name?: unknown; version?: unknown } | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as { name?: unknown; version?: unknown };
  } catch {
    return undefined;
  }
}

/** The packages whose versions decide what the probe observes. */
export function installedPackages(): InstalledPackage[] {
  const v1 = readInstalledPackage('@modelcontextprotocol/sdk');
  const v2 = readInstalledPackage('@modelcontextprotocol/client');
  // The v2 server package: the McpServer helper and createMcpHandler fixtures of the extended matrix.
  const v2Server = readInstalledPackage('@modelcontextprotocol/server');
  // The v2 client pins core exactly; resolve it from the client so a hoisting accident cannot mislead.
  const core = readInstalledPackage('@modelcontextprotocol/core', join(v2.dir, 'package.json'));
  const zod = readInstalledPackage('zod', join(v1.dir, 'package.json'));
  return [v1, v2, v2Server, core, zod];
}

/**
 * npm's integrity hash of each installed package, from the lockfile npm wrote next to node_modules
 * (`node_modules/.package-lock.json`, which records exactly what is installed).
 */
export function installedIntegrity(packages: readonly InstalledPackage[]): Record<string, string> {
  const integrity: Record<string, string> = {};
  for (const pkg of packages) {
    const nodeModules = pkg.dir.slice(0, pkg.dir.lastIndexOf(`${sep}node_modules${sep}`) + `${sep}node_modules`.length);
    const installPath = `node_modules/${pkg.dir.slice(nodeModules.length + 1).split(sep).join('/')}`;
    const hash = lockedIntegrity(join(nodeModules, '.package-lock.json'), installPath);
    if (hash) integrity[pkg.name] = hash;
  }
  return integrity;
}

export function captureEnvironment(packages: readonly InstalledPackage[] = installedPackages()): Environment {
  const sorted = [...packages].sort((a, b) => a.name.localeCompare(b.name));
  return {
    node: process.version,
    platform: process.platform,
    arch: process.arch,
    harness: `${HARNESS.name}@${HARNESS.version}`,
    packages: Object.fromEntries(sorted.map((p) => [p.name, p.version])),
    integrity: installedIntegrity(sorted),
  };
}

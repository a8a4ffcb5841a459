// The release cache: client releases installed on demand, each under an npm alias (`v1-1.33.0`), all
// missing ones of a run in one `npm install --ignore-scripts` so shared dependencies install once.
// Installed releases are reused by later runs and need no registry.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ReleaseLine } from '../core/domain.ts';
import { sdkLineOf, SERVER_PACKAGES, type ReleaseIdentity, type Side } from '../core/release.ts';
import { InputError } from '../core/errors.ts';
import { makeFolder, writeFileAtomic } from '../io/files.ts';
import { jsonText } from '../io/json-files.ts';
import { lockedIntegrity } from '../io/lockfile.ts';
import { CLIENT_ENTRY, CLIENT_PACKAGES, RELEASE_PEERS } from '../clients/packages.ts';

/** A release with where to load it from (absolute; never written into results). */
export interface LoadableRelease extends ReleaseIdentity {
  /** A module whose dynamic `import(specifier)` resolves inside the release's install. */
  readonly loaderUrl: string | null;
  readonly specifier: string;
}

const LOADER = 'export const load = (specifier) => import(specifier);\n';

export function defaultCacheDir(projectRoot: string, env: Readonly<Record<string, string | undefined>>): string {
  return env.MCP_SDK_PROBE_CACHE ? resolve(env.MCP_SDK_PROBE_CACHE) : join(projectRoot, '.cache', 'releases');
}

/**
 * The alias a release installs under: `v1-1.33.0`. A server release of a line whose server package is
 * its client package (v1: the SDK) shares the client's install; another package gets its own prefix
 * (`server-v2-2.4.0` for @modelcontextprotocol/server).
 */
export function aliasFor(line: ReleaseLine, label: string, side: Side = 'client'): string {
  const prefix = side === 'server' && SERVER_PACKAGES[sdkLineOf(line)] !== CLIENT_PACKAGES[line] ? `server-${line}` : line;
  return `${prefix}-${label.replace(/[^a-z0-9.+-]/gi, '-').replace('+', '-')}`;
}

/** The npm package a release of a line and side comes from. */
export function packageFor(line: ReleaseLine, side: Side = 'client'): string {
  return side === 'server' ? SERVER_PACKAGES[sdkLineOf(line)] : CLIENT_PACKAGES[line];
}

interface CacheManifest {
  name: string;
  private: true;
  description: string;
  dependencies: Record<string, string>;
}

function readManifest(cacheDir: string): CacheManifest {
  try {
    return JSON.parse(readFileSync(join(cacheDir, 'package.json'), 'utf8')) as CacheManifest;
  } catch {
    return {
      name: 'mcp-sdk-probe-release-cache',
      private: true,
      description: 'Client releases installed on demand by mcp-sdk-probe; safe to delete.',
      dependencies: {},
    };
  }
}

function installedVersion(dir: string, packageName: string): string | undefined {
  try {
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
    return manifest.name === packageName ? manifest.version : undefined;
  } catch {
    return undefined;
  }
}

function sha512(path: string): string {
  return `sha512-${createHash('sha512').update(readFileSync(path)).digest('base64')}`;
}

export interface Wanted {
  readonly line: ReleaseLine;
  readonly version: string;
  /** `server`: the line's server package (SERVER_PACKAGES); a client release when absent. */
  readonly side?: Side;
}

export interface InstallReport {
  readonly installed: readonly string[];
}

function runNpmInstall(cacheDir: string): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    execFile(
      'npm',
      // Peer ranges differ across releases of one package; installing them side by side must not fail
      // on that. Each release still gets its own regular dependencies (zod among them).
      [
        'install',
        '--ignore-scripts',
        '--no-audit',
        '--no-fund',
        '--legacy-peer-deps',
        '--prefer-offline',
        // An unreachable registry should fail the install in seconds, not after npm's default minutes of retries.
        '--fetch-retries=1',
        '--fetch-retry-mintimeout=1000',
        '--fetch-retry-maxtimeout=5000',
        '--loglevel=error',
      ],
      { cwd: cacheDir, timeout: 15 * 60_000, maxBuffer: 64 * 1024 * 1024 },
      (error, _stdout, stderr) => {
        if (!error) return resolvePromise();
        const line = stderr.split('\n').find((l) => /npm error (code|404|notarget)/i.test(l)) ?? stderr.split('\n')[0] ?? error.message;
        reject(new InputError(`installing client releases into ${cacheDir} failed: ${line.trim()}`));
      },
    );
  });
}

export class ReleaseCache {
  constructor(readonly dir: string) {}

  private aliasDir(alias: string): string {
    return join(this.dir, 'node_modules', alias);
  }

  /** Whether a published release is already installed here (no registry needed to use it). */
  has(wanted: Wanted): boolean {
    return installedVersion(this.aliasDir(aliasFor(wanted.line, wanted.version, wanted.side)), packageFor(wanted.line, wanted.side)) === wanted.version;
  }

  /**
   * Adds dependencies to the cache's manifest and installs them with one npm invocation. On failure the
   * manifest is left as it was, so it never lists a release that is not installed.
   */
  private async addAndInstall(dependencies: Record<string, string>, what: string): Promise<void> {
    makeFolder(this.dir, `the release cache ${this.dir}`);
    const manifest = readManifest(this.dir);
    const before = jsonText(manifest, 2);
    Object.assign(manifest.dependencies, dependencies);
    manifest.dependencies = Object.fromEntries(Object.entries(manifest.dependencies).sort(([a], [b]) => a.localeCompare(b)));
    writeFileAtomic(join(this.dir, 'package.json'), `${jsonText(manifest, 2)}\n`);
    writeFileAtomic(join(this.dir, 'load.mjs'), LOADER);
    try {
      await runNpmInstall(this.dir);
    } catch (error) {
      writeFileAtomic(join(this.dir, 'package.json'), `${before}\n`);
      throw new InputError(`cannot install ${what} (not in the release cache ${this.dir}): ${(error as Error).message.replace(/^.*failed: /, '')}`);
    }
  }

  /** Installs every missing published release with one npm invocation; returns what it installed. */
  async install(wanted: readonly Wanted[], onStart?: (count: number) => void): Promise<InstallReport> {
    // A v1 server release is the same install as the v1 client release: one alias, installed once.
    const missing = [...new Map(wanted.filter((w) => !this.has(w)).map((w) => [aliasFor(w.line, w.version, w.side), w])).values()];
    const peers = this.missingPeers(wanted);
    if (missing.length === 0 && Object.keys(peers).length === 0) return { installed: [] };
    if (missing.length > 0) onStart?.(missing.length);
    await this.addAndInstall(
      { ...peers, ...Object.fromEntries(missing.map((w) => [aliasFor(w.line, w.version, w.side), `npm:${packageFor(w.line, w.side)}@${w.version}`])) },
      missing.map((w) => `${packageFor(w.line, w.side)}@${w.version}`).join(', '),
    );
    return { installed: missing.map((w) => `${w.side === 'server' ? 'server-' : ''}${w.line}@${w.version}`) };
  }

  /** The peers (RELEASE_PEERS) the wanted client releases need that the cache does not have at their version. */
  private missingPeers(wanted: readonly Wanted[]): Record<string, string> {
    const needed: Record<string, string> = {};
    for (const w of wanted) if (w.side !== 'server') Object.assign(needed, (RELEASE_PEERS as Partial<Record<string, Record<string, string>>>)[w.line]);
    return Object.fromEntries(Object.entries(needed).filter(([name, version]) => installedVersion(this.aliasDir(name), name) !== version));
  }

  published(wanted: Wanted): LoadableRelease {
    const alias = aliasFor(wanted.line, wanted.version, wanted.side);
    const packageName = packageFor(wanted.line, wanted.side);
    if (installedVersion(this.aliasDir(alias), packageName) !== wanted.version) {
      throw new InputError(`${packageName}@${wanted.version} is not installed in ${this.dir} and could not be installed`);
    }
    return {
      ...(wanted.side === 'server' && { side: 'server' as const }),
      line: wanted.line,
      packageName,
      version: wanted.version,
      label: wanted.version,
      source: 'registry',
      integrity: lockedIntegrity(join(this.dir, 'package-lock.json'), `node_modules/${alias}`),
      loaderUrl: pathToFileURL(join(this.dir, 'load.mjs')).href,
      // A server release is loaded by subpath (ServerSource.module), so its specifier is the package itself.
      specifier: wanted.side === 'server' ? alias : [alias, CLIENT_ENTRY[wanted.line]].filter(Boolean).join('/'),
    };
  }

  /**
   * An unreleased build. A tarball is copied into the cache (so a later install does not depend on the
   * original file) and installed like a release; a folder is used in place through a link, so its own
   * node_modules serve its dependencies, as they would for an SDK maintainer's checkout.
   */
  async local(line: ReleaseLine, kind: 'tarball' | 'folder', userPath: string, flag: string): Promise<LoadableRelease> {
    const packageName = CLIENT_PACKAGES[line];
    if (!existsSync(userPath)) throw new InputError(`${flag} ${userPath}: no such file or folder`);
    const isFile = statSync(userPath).isFile();
    if ((kind === 'tarball') !== isFile) throw new InputError(`${flag} ${userPath}: expected ${kind === 'tarball' ? 'a .tgz file' : 'a package folder'}`);
    if (kind === 'tarball') {
      const integrity = sha512(userPath);
      const hash = createHash('sha256').update(integrity).digest('hex').slice(0, 12);
      makeFolder(join(this.dir, 'tarballs'), `the release cache ${this.dir}`);
      const kept = join(this.dir, 'tarballs', `${hash}.tgz`);
      if (!existsSync(kept)) copyFileSync(userPath, kept);
      const alias = aliasFor(line, `tgz-${hash}`);
      if (!existsSync(join(this.aliasDir(alias), 'package.json'))) {
        await this.addAndInstall({ [alias]: `file:tarballs/${hash}.tgz` }, basename(userPath));
      }
      const version = installedVersion(this.aliasDir(alias), packageName);
      if (!version) throw new InputError(`${flag} ${basename(userPath)}: the tarball does not contain ${packageName}`);
      return localRelease(line, version, hash, 'tarball', integrity, join(this.dir, 'load.mjs'), alias);
    }
    const folder = realpathSync(userPath);
    const version = installedVersion(folder, packageName);
    if (!version) throw new InputError(`${flag} ${userPath}: its package.json is not ${packageName}`);
    checkDependenciesInstalled(folder, userPath, flag);
    const hash = createHash('sha256').update(folder).digest('hex').slice(0, 12);
    const alias = aliasFor(line, `dir-${hash}`);
    // Links live outside node_modules/, which npm prunes on every install.
    const links = join(this.dir, 'links');
    makeFolder(join(links, 'node_modules'), `the release cache ${this.dir}`);
    writeFileAtomic(join(links, 'load.mjs'), LOADER);
    rmSync(join(links, 'node_modules', alias), { force: true });
    symlinkSync(folder, join(links, 'node_modules', alias), 'dir');
    return localRelease(line, version, hash, 'folder', null, join(links, 'load.mjs'), alias);
  }
}

/**
 * A folder is used in place, so its imports resolve from where it is (Node's resolution, from its real
 * path). A checkout's built package before `npm install` has none of its dependencies there, and its
 * first import would fail in a worker with "Cannot find package 'zod'" (issue 21): said up front, with
 * what to run. Checked: its dependencies and its required peers, as Node would look them up from the folder.
 */
function checkDependenciesInstalled(folder: string, userPath: string, flag: string): void {
  let manifest: { dependencies?: Record<string, string>; peerDependencies?: Record<string, string>; peerDependenciesMeta?: Record<string, { optional?: boolean }> };
  try {
    manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as typeof manifest;
  } catch {
    return; // installedVersion read it a moment ago; a file that changed since is the load's to report
  }
  const requiredPeers = Object.keys(manifest.peerDependencies ?? {}).filter((name) => manifest.peerDependenciesMeta?.[name]?.optional !== true);
  const needed = [...new Set([...Object.keys(manifest.dependencies ?? {}), ...requiredPeers])].sort();
  const lookup = createRequire(join(folder, 'package.json'));
  const missing = needed.filter((name) => !(lookup.resolve.paths(name) ?? []).some((dir) => existsSync(join(dir, name, 'package.json'))));
  if (missing.length === 0) return;
  const named = missing.length > 3 ? `${missing.slice(0, 3).join(', ')} and ${missing.length - 3} more` : missing.join(', ');
  throw new InputError(`${flag} ${userPath}: its dependencies are not installed (${named}); run npm install (or npm ci) in that folder, or pack it (npm pack) and pass the .tgz`);
}

/** An unreleased build, labelled by its version and a hash of where it came from. */
function localRelease(
  line: ReleaseLine,
  version: string,
  hash: string,
  source: 'tarball' | 'folder',
  integrity: string | null,
  loader: string,
  alias: string,
): LoadableRelease {
  return {
    line,
    packageName: CLIENT_PACKAGES[line],
    version,
    label: `${version}+local.${hash.slice(0, 8)}`,
    source,
    integrity,
    loaderUrl: pathToFileURL(loader).href,
    specifier: [alias, CLIENT_ENTRY[line]].filter(Boolean).join('/'),
  };
}

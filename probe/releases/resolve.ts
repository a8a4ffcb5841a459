// From what the user typed to loadable client releases: parse, resolve against the registry (or the
// cached version list), install what is missing in one npm invocation, and identify each release.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { RELEASE_LINES, SDK_LINES, type ReleaseLine, type SdkLine } from '../core/domain.ts';
import { installedIntegrity, readInstalledPackage } from '../io/environment.ts';
import { checkFolderPath } from '../io/files.ts';
import { lockedIntegrity } from '../io/lockfile.ts';
import { InputError } from '../core/errors.ts';
import { packageFor, ReleaseCache, type LoadableRelease, type Wanted } from './cache.ts';
import { releaseKey, type Side } from '../core/release.ts';
import { compareReleases } from './order.ts';
import { publishedVersions } from './registry.ts';
import { parseReleaseSpec, resolveRegistryQuery, type ReleaseSpec } from './spec.ts';

export interface ReleaseRequest {
  readonly line: ReleaseLine;
  /** `server`: the line's server package (`--server-v1`, `--server-v2`); a client release when absent. */
  readonly side?: Side;
  /** The flag it came from, for messages: `--v1`. */
  readonly flag: string;
  readonly text: string;
}

/**
 * The release flags a command was given (`--v1 <text>`, `--v2 <text>`, `--ai-sdk <text>`), in line order;
 * a flag given more than once (`--v1 1.20.0..1.22.0 --v1 ./my-build.tgz`) is one request per spec, in the
 * order typed (issue 21: a second --v1 used to replace the first without a word).
 */
export function releaseRequests(flags: Readonly<Partial<Record<ReleaseLine, string | readonly string[]>>>): ReleaseRequest[] {
  return RELEASE_LINES.flatMap((line) => {
    const given = flags[line];
    const texts = given === undefined ? [] : typeof given === 'string' ? [given] : given;
    return texts.map((text) => ({ line, flag: `--${line}`, text }));
  });
}

/**
 * A command that runs one release per line (the audit, a replay against one release) refuses a second
 * spec for a line, naming both, before anything resolves or installs.
 */
export function checkOneSpecPerLine(requests: readonly ReleaseRequest[], why: string): void {
  for (const request of requests) {
    const first = requests.find((other) => other.flag === request.flag);
    if (first !== request) throw new InputError(`${first!.flag} ${first!.text} and ${request.flag} ${request.text}: ${why}`);
  }
}

export interface ResolveContext {
  readonly projectRoot: string;
  readonly cacheDir: string;
  /** Local paths (`--v1 ./sdk.tgz`) are relative to this folder. */
  readonly cwd: string;
  readonly prerelease: boolean;
  /** The caller runs one release per line: more is an error, raised before anything installs. */
  readonly onePerLine?: boolean;
  readonly warn?: (message: string) => void;
  readonly onInstall?: (count: number) => void;
  /** How old a cached version list may be and still answer without the registry (registry.ts); 0: always ask. */
  readonly versionsMaxAgeMs?: number;
  /** Says when a range was resolved against the cached version list without asking the registry. */
  readonly note?: (message: string) => void;
}

/** The server release flags of a sweep (`--server-v1 <text>`, `--server-v2 <text>`), in line order. */
export function serverReleaseRequests(flags: Readonly<Partial<Record<SdkLine, string | readonly string[]>>>): ReleaseRequest[] {
  return releaseRequests(Object.fromEntries(SDK_LINES.map((line) => [line, flags[line]]))).map((request) => ({ ...request, side: 'server', flag: `--server-${request.line}` }));
}

/**
 * The project's own install of a line's client (or, `server`, of its server package): what
 * results/recorded.json was recorded with.
 */
export function pinnedRelease(line: ReleaseLine, projectRoot: string, side: Side = 'client'): LoadableRelease {
  const packageName = packageFor(line, side);
  const installed = readInstalledPackage(packageName, join(projectRoot, 'package.json'));
  // The project's lockfile in the checkout; in an installed package, the hidden lockfile npm keeps in the
  // node_modules that holds the package (what the environment block reads). Neither: unknown (null), which
  // the result says and the gates never count as a change.
  const integrity =
    lockedIntegrity(join(projectRoot, 'package-lock.json'), `node_modules/${packageName}`) ?? installedIntegrity([installed])[packageName] ?? null;
  return {
    ...(side === 'server' && { side }),
    line,
    packageName,
    version: installed.version,
    label: installed.version,
    source: 'pinned',
    integrity,
    loaderUrl: null,
    specifier: '',
  };
}

export async function resolveReleases(requests: readonly ReleaseRequest[], context: ResolveContext): Promise<LoadableRelease[]> {
  const cache = new ReleaseCache(context.cacheDir);
  // The cache folder is checked before its first use (a registry query, an install, a local build), so
  // an unusable MCP_SDK_PROBE_CACHE is one error up front; a run of the pinned clients never needs it.
  let cacheChecked = false;
  const useCache = () => {
    if (!cacheChecked) checkFolderPath(context.cacheDir, `the release cache ${context.cacheDir} (MCP_SDK_PROBE_CACHE)`);
    cacheChecked = true;
  };
  const releases: LoadableRelease[] = [];
  const wanted: Wanted[] = [];
  const locals: { request: ReleaseRequest; kind: 'tarball' | 'folder'; path: string }[] = [];

  if (context.onePerLine) checkOneSpecPerLine(requests, 'the audit runs one release per line (the sweep command takes several)');
  const specs = requests.map((request) => ({ request, spec: parseReleaseSpec(request.flag, request.text) }));
  for (const { request, spec } of specs) {
    if (spec.kind !== 'registry' && request.side === 'server') {
      throw new InputError(`${request.flag} ${request.text}: server sweeps take published releases only (a version, a range or latest), not a local build`);
    }
  }
  // An exact version that is pinned or installed needs no version list.
  const known = (request: ReleaseRequest, spec: ReleaseSpec): string | undefined =>
    spec.kind === 'registry' &&
    spec.query.kind === 'exact' &&
    (spec.query.version === pinnedRelease(request.line, context.projectRoot, request.side).version ||
      cache.has({ line: request.line, version: spec.query.version, ...(request.side && { side: request.side }) }))
      ? spec.query.version
      : undefined;
  // The version lists the requests need, asked for at once (one `npm view` per package, side by side).
  const lists = new Map<ReleaseRequest, ReturnType<typeof publishedVersions>>();
  for (const { request, spec } of specs) {
    if (spec.kind !== 'registry' || known(request, spec) !== undefined) continue;
    useCache();
    const asked = publishedVersions(context.cacheDir, packageFor(request.line, request.side), request.flag, context.versionsMaxAgeMs ?? 0);
    asked.catch(() => undefined); // awaited below, in request order; a second failure must not go unhandled meanwhile
    lists.set(request, asked);
  }
  for (const { request, spec } of specs) {
    if (spec.kind !== 'registry') {
      locals.push({ request, kind: spec.kind, path: resolve(context.cwd, spec.path.replace(/^~(?=[/\\])/, homedir())) });
      continue;
    }
    const pinned = pinnedRelease(request.line, context.projectRoot, request.side);
    let versions: string[];
    const list = lists.get(request);
    if (!list) {
      versions = [known(request, spec)!];
    } else {
      const { published, warning, ageMs } = await list;
      if (warning) context.warn?.(warning);
      versions = resolveRegistryQuery(request.flag, spec, published, { prerelease: context.prerelease });
      // Said once the range resolved: a range that does not resolve is one line of error, nothing else.
      if (ageMs !== undefined) {
        context.note?.(`${request.flag} ${request.text}: resolved against the version list cached ${Math.round(ageMs / 60_000)} min ago (MCP_SDK_PROBE_VERSIONS_MAX_AGE=0 asks the registry)`);
      }
    }
    if (context.onePerLine && versions.length !== 1) {
      throw new InputError(`${request.flag} ${request.text} names ${versions.length} releases; the audit runs one per line (use the sweep command for ranges)`);
    }
    for (const version of versions) {
      if (version === pinned.version) releases.push(pinned);
      else wanted.push({ line: request.line, version, ...(request.side && { side: request.side }) });
    }
  }

  const unique = [...new Map(wanted.map((w) => [`${w.side ?? 'client'}:${w.line}@${w.version}`, w])).values()];
  if (locals.length > 0 || unique.some((w) => !cache.has(w))) useCache();
  await cache.install(unique, context.onInstall);
  for (const w of unique) releases.push(cache.published(w));
  for (const local of locals) releases.push(await cache.local(local.request.line, local.kind, local.path, local.request.flag));

  const byKey = new Map(releases.map((r) => [releaseKey(r), r]));
  return [...byKey.values()].sort(compareReleases);
}

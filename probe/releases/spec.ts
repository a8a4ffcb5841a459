// Which client releases a run uses: parsing what the user typed (--v1 / --v2) and resolving it against
// the versions the registry has published. Both are pure; fetching the list lives in registry.ts.
import semver from 'semver';
import { InputError } from '../core/errors.ts';

export type ReleaseSpec =
  /** A packed tarball (`npm pack` output) of an unreleased build. */
  | { readonly kind: 'tarball'; readonly path: string }
  /** A built package folder, e.g. a checkout's `packages/client`. */
  | { readonly kind: 'folder'; readonly path: string }
  /** Published releases: `1.33.0`, `latest`, `1.10.0..latest`, `^1.20`, `>=1.10 <1.20`. */
  | { readonly kind: 'registry'; readonly text: string; readonly query: RegistryQuery };

export type RegistryQuery =
  | { readonly kind: 'exact'; readonly version: string }
  | { readonly kind: 'latest' }
  /** Inclusive at both ends; either end may be `latest`. */
  | { readonly kind: 'span'; readonly from: string; readonly to: string }
  | { readonly kind: 'range'; readonly range: string };

const LOCAL_PATH = /^(\.{1,2}([/\\]|$)|[/\\]|~[/\\]|[A-Za-z]:[/\\])/;

function endPoint(flag: string, text: string, value: string): string {
  if (value === 'latest') return value;
  const version = semver.valid(value);
  if (!version) throw new InputError(`${flag} ${text}: '${value}' is not a version (expected A..B with versions or latest)`);
  return version;
}

export function parseReleaseSpec(flag: string, text: string): ReleaseSpec {
  const value = text.trim();
  if (value === '') throw new InputError(`${flag} needs a version, a range, latest, a .tgz file or a package folder`);
  if (/\.(tgz|tar\.gz)$/.test(value)) return { kind: 'tarball', path: value };
  if (LOCAL_PATH.test(value)) return { kind: 'folder', path: value };
  if (value === 'latest') return { kind: 'registry', text: value, query: { kind: 'latest' } };
  const exact = semver.valid(value);
  if (exact) return { kind: 'registry', text: value, query: { kind: 'exact', version: exact } };
  const span = /^([^.\s][^\s]*?)\.\.([^.\s][^\s]*)$/.exec(value);
  if (span) {
    return { kind: 'registry', text: value, query: { kind: 'span', from: endPoint(flag, value, span[1]!), to: endPoint(flag, value, span[2]!) } };
  }
  if (semver.validRange(value)) return { kind: 'registry', text: value, query: { kind: 'range', range: value } };
  throw new InputError(`${flag} ${value}: not a version, a range (A..B, ^1.20), latest, a .tgz file or a package folder (./path)`);
}

export interface PublishedVersions {
  readonly packageName: string;
  readonly versions: readonly string[];
  readonly latest: string;
}

/** Up to `count` published versions on each side of `version`, for "did you mean" messages. */
export function nearestVersions(version: string, published: readonly string[], count = 2): string[] {
  const sorted = published.filter((v) => semver.valid(v)).sort(semver.compare);
  const at = sorted.findIndex((v) => semver.gte(v, version));
  const split = at === -1 ? sorted.length : at;
  return [...sorted.slice(Math.max(0, split - count), split), ...sorted.slice(split, split + count).filter((v) => v !== version)];
}

export interface ResolveOptions {
  /** Let ranges match prereleases (an exact prerelease version is always allowed). */
  readonly prerelease: boolean;
}

/** The published versions a registry query names, ascending. An empty answer is an InputError. */
export function resolveRegistryQuery(
  flag: string,
  spec: Extract<ReleaseSpec, { kind: 'registry' }>,
  published: PublishedVersions,
  options: ResolveOptions,
): string[] {
  const all = published.versions.filter((v) => semver.valid(v)).sort(semver.compare);
  const eligible = options.prerelease ? all : all.filter((v) => semver.prerelease(v) === null);
  const { query } = spec;
  const noRelease = (around: string) =>
    new InputError(
      `${flag} ${spec.text}: ${published.packageName} has no published release ${query.kind === 'exact' ? query.version : 'in that range'}` +
        `; nearest: ${nearestVersions(around, options.prerelease ? all : eligible).join(', ') || 'none'}`,
    );
  const at = (end: string) => (end === 'latest' ? published.latest : end);
  switch (query.kind) {
    case 'exact':
      if (!all.includes(query.version)) throw noRelease(query.version);
      return [query.version];
    case 'latest':
      return [published.latest];
    case 'span': {
      const [from, to] = [at(query.from), at(query.to)];
      if (semver.gt(from, to)) throw new InputError(`${flag} ${spec.text}: the range runs backwards (${from} is after ${to})`);
      const matched = eligible.filter((v) => semver.gte(v, from) && semver.lte(v, to));
      if (matched.length === 0) throw noRelease(from);
      return matched;
    }
    case 'range': {
      const matched = eligible.filter((v) => semver.satisfies(v, query.range, { includePrerelease: options.prerelease }));
      if (matched.length === 0) throw noRelease(semver.minVersion(query.range)?.version ?? published.latest);
      return matched;
    }
  }
}

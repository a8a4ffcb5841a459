// A client release as results record it: which line, which package, which version and where it came
// from, with no absolute paths. One schema; the type is inferred from it.
import { z } from 'zod';
import { ReleaseLineSchema, SDK_LINES, type ReleaseLine, type SdkLine } from './domain.ts';

/** Where a release came from. `pinned` is the project's own install (results/recorded.json). */
export const ReleaseSourceSchema = z.enum(['pinned', 'registry', 'tarball', 'folder']);

/**
 * Which side of the wire a sweep varies: the client package of a line (the fixture stays the pinned server),
 * or the server package a fixture comes from (the clients stay pinned).
 */
export const SIDES = ['client', 'server'] as const;
export type Side = (typeof SIDES)[number];

/**
 * The server package of each line: the v1 SDK (low-level `Server`, `McpServer`), and the v2 server package
 * (its `McpServer` and `createMcpHandler`). `--server-v1`/`--server-v2` vary these.
 */
export const SERVER_PACKAGES = {
  v1: '@modelcontextprotocol/sdk',
  v2: '@modelcontextprotocol/server',
} as const satisfies Record<SdkLine, string>;

export const ReleaseIdentitySchema = z
  .object({
    /** Present for a server release (`--server-v1`/`--server-v2`); a client release has none. */
    side: z.literal('server').optional(),
    /** A client release's line (v1, v2, ai-sdk); a server release's is v1 or v2. */
    line: ReleaseLineSchema,
    packageName: z.string(),
    /** The version in the release's own package.json. */
    version: z.string(),
    /** Stable label: the version for published releases, `<version>+local.<hash>` for local builds. */
    label: z.string(),
    source: ReleaseSourceSchema,
    /** npm's SRI hash of the package tarball; null for a folder (it has none). */
    integrity: z.string().nullable(),
  })
  .strict();
export type ReleaseIdentity = z.infer<typeof ReleaseIdentitySchema>;

/** A server release's line: only the SDK lines have server packages (SERVER_PACKAGES). */
export function sdkLineOf(line: ReleaseLine): SdkLine {
  if (!(SDK_LINES as readonly string[]).includes(line)) throw new TypeError(`the ${line} line has no server package`);
  return line as SdkLine;
}

export function sideOf(release: Pick<ReleaseIdentity, 'side'>): Side {
  return release.side ?? 'client';
}

/** `line@label` (`server-line@label` for a server release): how plans, baselines and reports name a release. */
export function releaseKey(release: Pick<ReleaseIdentity, 'side' | 'line' | 'label'>): string {
  return `${release.side === 'server' ? 'server-' : ''}${release.line}@${release.label}`;
}

/**
 * The inverse of `releaseKey`, for files that name releases only by key (sweep baselines). `version` is
 * the label's semver part, so local builds order just after the release they name.
 */
export function parseReleaseKey(key: string): { line: string; label: string; version: string } {
  const at = key.indexOf('@');
  const [line, label] = at === -1 ? [key, ''] : [key.slice(0, at), key.slice(at + 1)];
  return { line, label, version: label.replace(/\+.*$/, '') };
}

/** `<package>@<label>`: how a case record names the client it ran against (`clientPackage`). */
export function clientPackageOf(packageName: string, label: string): string {
  return `${packageName}@${label}`;
}

/** The inverse of `clientPackageOf` (package names may start with `@`, so the last `@` separates). */
export function splitClientPackage(clientPackage: string): { packageName: string; label: string } {
  const at = clientPackage.lastIndexOf('@');
  return { packageName: clientPackage.slice(0, at), label: clientPackage.slice(at + 1) };
}

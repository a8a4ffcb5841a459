// A client release as results record it: which line, which package, which version and where it came
// from, with no absolute paths. One schema; the type is inferred from it.
import { z } from 'zod';
import { ClientLineSchema } from './domain.ts';

/** Where a release came from. `pinned` is the project's own install (results/recorded.json). */
export const ReleaseSourceSchema = z.enum(['pinned', 'registry', 'tarball', 'folder']);

export const ReleaseIdentitySchema = z
  .object({
    line: ClientLineSchema,
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

/** `line@label`: how plans, baselines and reports name a release. */
export function releaseKey(release: Pick<ReleaseIdentity, 'line' | 'label'>): string {
  return `${release.line}@${release.label}`;
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

import manifest from '../../package.json' with { type: 'json' };

/** This harness's own name and version, as clients and servers introduce themselves and results record. */
export const HARNESS = { name: manifest.name, version: manifest.version } as const;

/** The repository URL package.json names (`repository` as a string or `{ url }`), for reproduce commands. */
export function harnessRepository(): string | undefined {
  const repository = (manifest as { repository?: string | { url?: string } }).repository;
  const url = typeof repository === 'string' ? repository : repository?.url;
  return url?.replace(/^git\+/, '');
}

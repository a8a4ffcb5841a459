import semver from 'semver';

/** Orders releases by line, then version (a local build sorts just after the release it names). */
export function compareReleases(a: { line: string; version: string; label: string }, b: typeof a): number {
  if (a.line !== b.line) return a.line < b.line ? -1 : 1;
  return semver.compare(a.version, b.version) || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0);
}

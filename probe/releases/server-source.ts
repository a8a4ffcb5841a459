// A server release loaded for the fixtures (a server sweep): its modules by subpath through the cache's
// loader, and its own dependencies (zod) resolved from the release's folder the way its code resolves them.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ServerSource } from '../core/fixture.ts';
import { sdkLineOf } from '../core/release.ts';
import type { LoadableRelease } from './cache.ts';

type ExportTarget = string | { readonly [condition: string]: ExportTarget } | null | undefined;

/** The file an ESM `import` of a package's main entry loads (conditions `import`, then `default`). */
function esmEntry(exports: ExportTarget): string | undefined {
  if (typeof exports === 'string' || exports === null || exports === undefined) return exports ?? undefined;
  const main = '.' in exports ? exports['.'] : exports;
  if (typeof main === 'string' || main === null || main === undefined) return main ?? undefined;
  for (const condition of ['import', 'default']) {
    const target = esmEntry(main[condition]);
    if (target) return target;
  }
  return undefined;
}

/** The release as a ServerSource; undefined for the pinned install (the fixtures then import their own). */
export function serverSourceOf(release: LoadableRelease): ServerSource | undefined {
  if (release.loaderUrl === null) return undefined;
  const loader = import(release.loaderUrl) as Promise<{ load: (specifier: string) => Promise<unknown> }>;
  const cacheDir = dirname(fileURLToPath(release.loaderUrl));
  const packageDir = join(cacheDir, 'node_modules', release.specifier);
  return {
    line: sdkLineOf(release.line),
    label: release.label,
    async module(subpath) {
      try {
        return await (await loader).load(subpath ? `${release.specifier}/${subpath}` : release.specifier);
      } catch (error) {
        // Node's message names the cache's absolute path; a result must not (a release without the module
        // is recorded by the case that needed it, so the wording reaches result files).
        const { code, message } = error as { code?: unknown; message?: unknown };
        const what = `${release.packageName}@${release.label} ${subpath || '(main entry)'}`;
        if (code === 'ERR_MODULE_NOT_FOUND' || code === 'ERR_PACKAGE_PATH_NOT_EXPORTED') throw new Error(`${what}: no such module in this release (${code})`);
        throw new Error(`${what} failed to load: ${String(message).replaceAll(pathToFileURL(cacheDir).href, '<release cache>').replaceAll(cacheDir, '<release cache>')}`);
      }
    },
    async dependency(name) {
      // Node 20 has no import.meta.resolve with a parent, so: find the package as the release's own code
      // would (nested under it, else hoisted), then its ESM entry, so the release and we share one instance.
      // (resolve.paths, not resolve(`${name}/package.json`): an old package's exports may not list it.)
      const folders = createRequire(join(packageDir, 'package.json')).resolve.paths(name) ?? [];
      const manifestPath = folders.map((folder) => join(folder, name, 'package.json')).find((path) => existsSync(path));
      if (!manifestPath) throw new Error(`${release.packageName}@${release.label} has no ${name} installed beside it`);
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { exports?: ExportTarget; module?: string; main?: string };
      const entry = esmEntry(manifest.exports) ?? manifest.module ?? manifest.main ?? 'index.js';
      return import(pathToFileURL(join(dirname(manifestPath), entry)).href);
    },
  };
}

// Loading a client release's module (an SDK `Client` class, `@ai-sdk/mcp`) at run time (the sweep's workers, the case pool's workers,
// --v1/--v2) and wrapping it in its line's adapter. What to load is plain data, so it can cross into a
// worker thread; releases/ decides which release that is and installs it.
import type { ClientLine } from '../core/domain.ts';
import { clientPackageOf } from '../core/release.ts';
import type { ClientUnderTest } from './adapter.ts';
import { adapterFromModule, adapters } from './index.ts';

/** Where a release's client module is: `loaderUrl: null` is the project's own pinned install. */
export interface ClientModuleRef {
  readonly line: ClientLine;
  readonly packageName: string;
  readonly label: string;
  /** A module whose dynamic `import(specifier)` resolves inside the release's install. */
  readonly loaderUrl: string | null;
  readonly specifier: string;
}

/** Loads a release's `Client` into this module instance and wraps it in its line's adapter. */
export async function loadClientUnderTest(release: ClientModuleRef): Promise<ClientUnderTest> {
  const clientPackage = clientPackageOf(release.packageName, release.label);
  if (release.loaderUrl === null) return { adapter: adapters[release.line], clientPackage };
  const { load } = (await import(release.loaderUrl)) as { load: (specifier: string) => Promise<unknown> };
  const module = await load(release.specifier);
  const create = (adapterFromModule as Partial<Record<ClientLine, (typeof adapterFromModule)[keyof typeof adapterFromModule]>>)[release.line];
  if (!create) throw new TypeError(`the ${release.line} line loads only its pinned package`);
  return { adapter: create(module, clientPackage), clientPackage };
}

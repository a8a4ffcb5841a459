// Bundles the probe's own TypeScript (probe/, scenarios/) into dist/cli.mjs with esbuild, which the
// toolchain already carries (tsx and vite depend on it). The SDK packages stay external and load as
// the plain JavaScript they ship: routing them through a TypeScript loader (tsx) costs ~2x on module
// loading, which would dominate a run that makes 13 in-memory calls.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CLI_BUNDLE = join(PROJECT_ROOT, 'dist', 'cli.mjs');
/** The sweep's per-release worker (probe/sweep/worker.ts), a bundle of its own. */
export const SWEEP_WORKER_BUNDLE = join(PROJECT_ROOT, 'dist', 'sweep-worker.mjs');
/** The stdio fixture's child process (probe/fixtures/stdio-child.ts). */
export const FIXTURE_STDIO_BUNDLE = join(PROJECT_ROOT, 'dist', 'fixture-stdio.mjs');
/** The library API (probe/api/index.ts), the package's main export. */
export const LIBRARY_BUNDLE = join(PROJECT_ROOT, 'dist', 'index.mjs');
/** The vitest matchers (probe/api/vitest.ts), the package's `mcp-sdk-probe/vitest` export. */
export const VITEST_BUNDLE = join(PROJECT_ROOT, 'dist', 'vitest.mjs');
const STAMP = join(PROJECT_ROOT, 'dist', 'cli.stamp');
const SOURCE_DIRS = ['probe', 'scenarios'];

/**
 * Whether the probe's TypeScript sources are here (the project's checkout). An installed package ships
 * only dist/ (and this file and launch.mjs), so it has nothing to rebuild from and never rebuilds.
 */
export function hasSources(root = PROJECT_ROOT) {
  return existsSync(join(root, 'probe', 'commands', 'main.ts'));
}

/** A hash of everything the bundle is made from; a different hash means the bundle is stale. */
export function sourceStamp(root = PROJECT_ROOT) {
  const hash = createHash('sha256');
  const files = SOURCE_DIRS.flatMap((dir) =>
    readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && !/\.test\.[cm]?ts$/.test(entry.name))
      .map((entry) => join(entry.parentPath ?? entry.path, entry.name)),
  );
  files.push(join(root, 'package.json'));
  for (const file of files.map((f) => relative(root, f)).sort()) {
    hash.update(`${file}\0`).update(readFileSync(join(root, file))).update('\0');
  }
  return hash.digest('hex');
}

export function bundleIsFresh(stamp = sourceStamp()) {
  try {
    return readFileSync(STAMP, 'utf8') === stamp;
  } catch {
    return false;
  }
}

/**
 * The matchers' import of the library (`./index.ts` from probe/api/vitest.ts) stays an import of the
 * sibling dist/index.mjs instead of a second copy of the library inside dist/vitest.mjs. (`vitest` itself
 * is external with every package: the consumer's own vitest is the one the matchers extend.)
 */
const LIBRARY_AS_SIBLING = {
  name: 'library-as-sibling',
  setup(build) {
    const matchers = join(PROJECT_ROOT, 'probe', 'api', 'vitest.ts');
    build.onResolve({ filter: /^\.\/index\.ts$/ }, (args) => (args.importer === matchers ? { path: './index.mjs', external: true } : undefined));
  },
};

export async function buildCli(stamp = sourceStamp()) {
  const { build } = await import('esbuild');
  mkdirSync(dirname(CLI_BUNDLE), { recursive: true });
  // Unique temporary names and renames: concurrent runs (the test suite spawns several) never see a
  // half-written bundle, and the stamp only appears once its bundle is in place.
  const temporary = join(dirname(CLI_BUNDLE), `.build-${process.pid}`);
  try {
    await build({
      entryPoints: {
        cli: join(PROJECT_ROOT, 'probe', 'commands', 'main.ts'),
        'sweep-worker': join(PROJECT_ROOT, 'probe', 'sweep', 'worker.ts'),
        'fixture-stdio': join(PROJECT_ROOT, 'probe', 'fixtures', 'stdio-child.ts'),
        'case-worker': join(PROJECT_ROOT, 'probe', 'engine', 'case-worker.ts'),
        index: join(PROJECT_ROOT, 'probe', 'api', 'index.ts'),
        vitest: join(PROJECT_ROOT, 'probe', 'api', 'vitest.ts'),
      },
      outdir: temporary,
      outExtension: { '.js': '.mjs' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      logLevel: 'error',
      plugins: [LIBRARY_AS_SIBLING],
    });
    renameSync(join(temporary, 'sweep-worker.mjs'), SWEEP_WORKER_BUNDLE);
    renameSync(join(temporary, 'fixture-stdio.mjs'), FIXTURE_STDIO_BUNDLE);
    renameSync(join(temporary, 'case-worker.mjs'), join(dirname(CLI_BUNDLE), 'case-worker.mjs'));
    renameSync(join(temporary, 'index.mjs'), LIBRARY_BUNDLE);
    renameSync(join(temporary, 'vitest.mjs'), VITEST_BUNDLE);
    renameSync(join(temporary, 'cli.mjs'), CLI_BUNDLE);
    writeFileSync(join(temporary, 'stamp'), stamp);
    renameSync(join(temporary, 'stamp'), STAMP);
  } finally {
    rmSync(temporary, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildCli();
}

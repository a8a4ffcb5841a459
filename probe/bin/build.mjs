// Bundles the probe's own TypeScript (probe/, scenarios/) into dist/cli.mjs with esbuild, which the
// toolchain already carries (tsx and vite depend on it). Routing the sources through a TypeScript loader
// (tsx) costs ~2x on module loading, which would dominate a run that makes 13 in-memory calls.
// The threads and processes that run cases (dist/case-worker.mjs, dist/fixture-stdio.mjs) carry the SDKs
// and their dependencies inlined: resolving and reading the ~370 modules they are made of, in every case
// thread and every stdio child, cost more than the cases (issue 10; `npm run bench`). The command's own
// thread (dist/cli.mjs) inlines its libraries (zod, commander, ajv, ...) but never the SDKs, which it
// does not load for a pooled run. The library (dist/index.mjs, dist/vitest.mjs) and the sweep's worker
// keep every package external: a consumer's install decides those.
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
/** The case pool's thread (probe/engine/case-worker.ts). */
export const CASE_WORKER_BUNDLE = join(PROJECT_ROOT, 'dist', 'case-worker.mjs');
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
  // The lockfile too: the bundles inline the installed SDKs' dependencies, which it pins.
  files.push(join(root, 'package.json'));
  if (existsSync(join(root, 'package-lock.json'))) files.push(join(root, 'package-lock.json'));
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

/**
 * Bundled code that inlines CommonJS packages (ajv, ...) calls `require` for Node's built-ins, which an ES
 * module does not have: each bundle that inlines packages gets one.
 */
/**
 * The ecosystem client lines' packages (probe/clients/packages.ts LINE_PINS) stay external everywhere: they
 * are optional peers of an installed probe, so the user's install decides whether a line runs (and which
 * exact version ran is read from it), and the shipped bundles do not carry LangChain.
 */
const ECOSYSTEM_PACKAGES = ['@ai-sdk/*', '@langchain/*'];

const REQUIRE_BANNER = "import { createRequire as __probeCreateRequire } from 'node:module'; const require = __probeCreateRequire(import.meta.url);";

export async function buildCli(stamp = sourceStamp()) {
  const { build } = await import('esbuild');
  mkdirSync(dirname(CLI_BUNDLE), { recursive: true });
  // Unique temporary names and renames: concurrent runs (the test suite spawns several) never see a
  // half-written bundle, and the stamp only appears once its bundle is in place.
  const temporary = join(dirname(CLI_BUNDLE), `.build-${process.pid}`);
  try {
    const common = { outdir: temporary, outExtension: { '.js': '.mjs' }, bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'error' };
    await Promise.all([
      build({
        ...common,
        entryPoints: {
          index: join(PROJECT_ROOT, 'probe', 'api', 'index.ts'),
          vitest: join(PROJECT_ROOT, 'probe', 'api', 'vitest.ts'),
        },
        packages: 'external',
        plugins: [LIBRARY_AS_SIBLING],
      }),
      // The case runners: everything inlined but esbuild (user .ts files are bundled in another process).
      // Whitespace and syntax minified (identifiers not: error and class names are observations), because a
      // case thread's start-up is mostly reading and parsing this file: 3.5 MB -> 2.5 MB, ~20 ms less
      // per thread and per stdio child (issue 10: the audit within 1.15x of bench/floor.mjs).
      build({
        ...common,
        minifyWhitespace: true,
        minifySyntax: true,
        entryPoints: {
          'case-worker': join(PROJECT_ROOT, 'probe', 'engine', 'case-worker.ts'),
          'fixture-stdio': join(PROJECT_ROOT, 'probe', 'fixtures', 'stdio-child.ts'),
          'sweep-worker': join(PROJECT_ROOT, 'probe', 'sweep', 'worker.ts'),
        },
        external: ['esbuild', ...ECOSYSTEM_PACKAGES],
        banner: { js: REQUIRE_BANNER },
      }),
      // The command's thread: its libraries inlined; the SDKs stay external (loaded only by in-process runs).
      // Minified like the case runners: unminified, the comments esbuild keeps included non-ASCII text (zod's
      // locales, ours), which made V8 hold the whole 2 MB source as a two-byte string (4.3 MB of the
      // command thread's heap).
      build({
        ...common,
        minifyWhitespace: true,
        minifySyntax: true,
        entryPoints: { cli: join(PROJECT_ROOT, 'probe', 'commands', 'main.ts') },
        external: ['esbuild', '@modelcontextprotocol/*', ...ECOSYSTEM_PACKAGES],
        banner: { js: REQUIRE_BANNER },
      }),
    ]);
    renameSync(join(temporary, 'sweep-worker.mjs'), SWEEP_WORKER_BUNDLE);
    renameSync(join(temporary, 'fixture-stdio.mjs'), FIXTURE_STDIO_BUNDLE);
    renameSync(join(temporary, 'case-worker.mjs'), CASE_WORKER_BUNDLE);
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

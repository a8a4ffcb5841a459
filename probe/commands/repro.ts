// `--format repro`: the selected cases as a standalone folder (package.json, repro.mjs, README.md; for
// several cases one script each under cases/) a maintainer can run without this project. The render layer
// writes the text; this file checks the request and the folder.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { ResultFile, Scenario } from '../core/domain.ts';
import { clientPackageOf, type ReleaseIdentity } from '../core/release.ts';
import { InputError } from '../core/errors.ts';
import { readInstalledPackage } from '../io/environment.ts';
import { renderReproFolder, reproUnsupported, type ReproInput } from '../render/repro.ts';
import type { CliIo } from './io.ts';

/**
 * Checks a --format repro request before anything runs: at least one case, each one that can be
 * reproduced without the harness, and an --out folder that is new or empty. Returns the folder (absolute).
 */
export function checkReproRequest(out: string | undefined, selected: readonly Scenario[], io: CliIo): string {
  if (out === undefined) throw new InputError('--format repro needs --out <dir>, a new or empty folder to write the reproduction into');
  if (selected.length === 0) throw new InputError('--format repro: --case selects no case');
  for (const scenario of selected) {
    const reason = reproUnsupported(scenario);
    if (reason) {
      throw new InputError(
        `--format repro: case ${scenario.id} cannot be reproduced standalone: ${reason}${selected.length > 1 ? ` (--case selects ${selected.length} cases; narrow it to those that can)` : ''}`,
      );
    }
  }
  const dir = resolve(io.cwd, out);
  if (existsSync(dir)) {
    if (!statSync(dir).isDirectory()) throw new InputError(`--out ${out}: exists and is not a folder; --format repro writes a new or empty folder`);
    if (readdirSync(dir).length > 0) throw new InputError(`--out ${out}: the folder is not empty; --format repro never overwrites files`);
  }
  return dir;
}

/** The installed version of the v2 server package, which the result's environment block does not list. */
function serverPackageVersion(): Record<string, string> {
  try {
    return { '@modelcontextprotocol/server': readInstalledPackage('@modelcontextprotocol/server').version };
  } catch {
    return {};
  }
}

/**
 * What renderRepro needs for each case of `scenarios` that `result` holds: its record, the packages that
 * ran, and the identity of the client release it ran when that is not the pinned install (`releases`,
 * from the release cache: a local build is known only by it).
 */
export function reproInputs(scenarios: readonly Scenario[], result: ResultFile, runTimeoutMs: number, releases: readonly ReleaseIdentity[] = []): ReproInput[] {
  const packages = { ...serverPackageVersion(), ...result.environment.packages };
  // A case in two matrices (--matrix all) ran once: it is reproduced once.
  const unique = [...new Map(scenarios.map((scenario) => [scenario.id, scenario])).values()];
  return unique.map((scenario) => {
    const record = result.cases.find((c) => c.id === scenario.id);
    if (!record) throw new Error(`repro: the run has no record of case ${scenario.id}`);
    const clientRelease = releases.find((release) => release.side !== 'server' && clientPackageOf(release.packageName, release.label) === record.clientPackage && release.source !== 'pinned');
    return { scenario, record, packages, timeoutMs: scenario.timeoutMs ?? runTimeoutMs, ...(clientRelease && { clientRelease }) };
  });
}

/** The folder's files for the cases of `result`; throws InputError when one cannot be pinned or reproduced. */
export function reproFiles(scenarios: Scenario | readonly Scenario[], result: ResultFile, runTimeoutMs: number, releases: readonly ReleaseIdentity[] = []): Record<string, string> {
  return renderReproFolder(reproInputs(Array.isArray(scenarios) ? scenarios : [scenarios as Scenario], result, runTimeoutMs, releases));
}

/**
 * Writes the files into a temporary folder beside `dir`, then renames it into place, so `dir` is either
 * untouched or complete. `dir` must be absent or empty (checked again here: time has passed since).
 */
export function writeReproFolder(dir: string, files: Record<string, string>): void {
  const temporary = join(dirname(dir), `.${basename(dir)}.${process.pid}.tmp`);
  try {
    mkdirSync(dirname(dir), { recursive: true });
    rmSync(temporary, { recursive: true, force: true });
    mkdirSync(temporary);
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(dirname(join(temporary, name)), { recursive: true });
      writeFileSync(join(temporary, name), text);
    }
    if (existsSync(dir)) {
      if (readdirSync(dir).length > 0) throw new InputError(`${dir}: the folder is no longer empty; nothing written`);
      rmdirSync(dir);
    }
    renameSync(temporary, dir);
  } catch (error) {
    rmSync(temporary, { recursive: true, force: true });
    if (error instanceof InputError) throw error;
    throw new InputError(`${dir}: cannot write the reproduction (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
}

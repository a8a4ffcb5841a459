// What every command shares: the process's streams and environment (injected, so tests can drive the
// CLI in-process), project paths, colour and CI detection.
import { basename, isAbsolute, relative, resolve, sep } from 'node:path';
import { styleText } from 'node:util';
import { terminalLine, terminalText } from '../core/escape.ts';
import { INSTALLED_RESULTS_FOLDER, PROJECT_ROOT, RUNS_FROM_CHECKOUT } from '../io/project.ts';
import { defaultCacheDir } from '../releases/cache.ts';
import { versionsMaxAgeMs } from '../releases/registry.ts';
import type { ResolveContext } from '../releases/resolve.ts';
import { NO_COLOUR, type Paint } from '../render/terminal.ts';

export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly stdoutIsTty: boolean;
  readonly stderrIsTty: boolean;
  /**
   * stdout's width in columns when it is a terminal, which --help wraps to; otherwise (and when absent)
   * help wraps at 80, commander's default, so docs/cli.md (written in-process) is the same on every machine.
   */
  readonly columns?: number;
}

export { PROJECT_ROOT, RUNS_FROM_CHECKOUT };

/** How the sweep's progress line rewrites itself in place: carriage return, then erase to its end (ECMA-48 EL). */
export const REWRITE_LINE = '\r\u001b[K';

/**
 * The process with every write to stderr passed through terminalText (issue 20). stderr carries only
 * messages the probe words (errors, warnings, notes, progress), many quoting data: a file name, a flag's
 * value, a server's or a release's error text. The one control sequence of the probe's own there, the
 * progress line's REWRITE_LINE at the start of a write, is kept; any other is shown as an escape.
 */
export function withTerminalMessages(io: CliIo): CliIo {
  const stderr = (text: string) =>
    io.stderr(text.startsWith(REWRITE_LINE) ? `${REWRITE_LINE}${terminalText(text.slice(REWRITE_LINE.length))}` : terminalText(text));
  return { ...io, stderr };
}
/** The committed recorded results and sweep baseline (shipped in the package; read-only when installed). */
const RECORDED_DIR = resolve(PROJECT_ROOT, 'results');
/**
 * Where default outputs go: results/ in the checkout, as always; from an installed package (which never
 * writes into its own folder) ./mcp-sdk-probe-results/ in the working folder.
 */
export const RESULTS_DIR = RUNS_FROM_CHECKOUT ? RECORDED_DIR : resolve(process.cwd(), INSTALLED_RESULTS_FOLDER);
export const DEFAULT_RECORDED = resolve(RECORDED_DIR, 'recorded.json');
export const DEFAULT_RECORDED_EXTENDED = resolve(RECORDED_DIR, 'recorded-extended.json');
export const DEFAULT_RECORDED_ECOSYSTEM = resolve(RECORDED_DIR, 'recorded-ecosystem.json');
export const DEFAULT_OUT = resolve(RESULTS_DIR, 'latest.json');
export const DEFAULT_SWEEP_OUT = resolve(RESULTS_DIR, 'sweep-latest.json');
export const DEFAULT_SWEEP_BASELINE = resolve(RECORDED_DIR, 'sweep-baseline.json');
/** explore's known findings (recorded with --update) and where it writes its finding files. */
export const DEFAULT_EXPLORE_KNOWN = resolve(RECORDED_DIR, 'explore-known.json');
export const DEFAULT_EXPLORE_OUT = resolve(RESULTS_DIR, 'explore');

/** `CI` as most CI systems set it ("true", "1"); unset, empty, "0" or "false" mean a person is at the keyboard. */
export function isCi(env: CliIo['env']): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== '0' && value !== 'false';
}

/** https://no-color.org: colour only on a terminal, and never when NO_COLOR is set to anything non-empty. */
export function wantsColour(io: Pick<CliIo, 'env' | 'stdoutIsTty'>): boolean {
  return io.stdoutIsTty && !io.env.NO_COLOR;
}

const COLOUR: Paint = {
  pass: (text) => styleText('green', text),
  fail: (text) => styleText('red', text),
  dim: (text) => styleText('dim', text),
  bold: (text) => styleText('bold', text),
};

export function paintFor(io: CliIo): Paint {
  return wantsColour(io) ? COLOUR : NO_COLOUR;
}

/**
 * A path as every report names it (reports are pasted into bug reports and read on other machines):
 * relative to the working folder or the project when inside them, else only its file name. Never a path
 * of this machine. (Error messages name files in full, and pathToPaste the files the person at this
 * machine is pointed to: both are for them.)
 */
export function displayPath(path: string, cwd: string): string {
  for (const base of [cwd, PROJECT_ROOT]) {
    const shown = relative(base, path);
    if (shown && !shown.startsWith('..') && !isAbsolute(shown)) return shown.split(sep).join('/');
  }
  return basename(path);
}

/**
 * A path as the person at this machine uses it from the working folder: relative when inside it, else
 * absolute. For the lines that hand a path over (`… written to PATH`, `cd PATH && …`): issue 21, `cd
 * repro-v1` for --out /some/dir/repro-v1 went nowhere. Reports that leave the machine use displayPath.
 */
export function pathToPaste(path: string, cwd: string): string {
  const shown = relative(cwd, path);
  if (shown === '') return '.';
  const outside = shown === '..' || shown.startsWith(`..${sep}`) || isAbsolute(shown);
  if (outside) return path;
  const posix = shown.split(sep).join('/');
  // Pasted after `cd` (or any command), a leading dash would be read as an option.
  return posix.startsWith('-') ? `./${posix}` : posix;
}

export function resolveFrom(io: CliIo, path: string | undefined, fallback: string): string {
  return path ? resolve(io.cwd, path) : fallback;
}

/** How commands resolve --v1/--v2: the project's pinned install, the release cache, paths from the working folder. */
export function releaseContext(io: CliIo, prerelease: boolean, onInstall: (count: number) => void): ResolveContext {
  return {
    projectRoot: PROJECT_ROOT,
    // The checkout's .cache/releases; from an installed package, ./mcp-sdk-probe-results/.cache/releases.
    cacheDir: defaultCacheDir(RUNS_FROM_CHECKOUT ? PROJECT_ROOT : resolve(io.cwd, INSTALLED_RESULTS_FOLDER), io.env),
    cwd: io.cwd,
    prerelease,
    warn: (message) => io.stderr(`warning: ${terminalLine(message)}\n`),
    onInstall,
    versionsMaxAgeMs: versionsMaxAgeMs(io.env),
    note: (message) => io.stderr(`note: ${terminalLine(message)}\n`),
  };
}

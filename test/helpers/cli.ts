// Runs the shipped command (probe/bin/launch.mjs) as a user would, in a real process.
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..', '..');
export const LAUNCHER = join(ROOT, 'probe', 'bin', 'launch.mjs');
export const RECORDED = join(ROOT, 'results', 'recorded.json');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [LAUNCHER, ...args],
      // CI is cleared unless a test sets it: the suite itself runs in CI, and most tests need the
      // person-at-a-keyboard behaviour (--update allowed).
      { cwd: ROOT, env: { ...process.env, CI: '', NO_COLOR: '', ...env }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

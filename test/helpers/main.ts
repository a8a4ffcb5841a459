// Runs the whole CLI in this process through `main(argv, io)`, with captured output: the same parsing,
// commands and exit codes as the shipped command, without a process (and its start-up) per case.
// The shipped command itself is covered by the few real-process tests in test/launch.test.ts.
import { main } from '../../probe/commands/cli.ts';
import { TEST_PROJECT } from './test-project.ts';

export interface MainRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface MainOptions {
  /** Added to the environment the CLI sees (the CLI reads CI, NO_COLOR, MCP_SDK_PROBE_CACHE from it). */
  env?: Record<string, string>;
  /**
   * The working folder. Defaults to the temporary project copy (see test-project.ts), so relative
   * paths and the default output files resolve there and reports show `results/recorded.json`.
   */
  cwd?: string;
  stdoutIsTty?: boolean;
  /** stderr on a terminal: the sweep's progress line then rewrites itself in place. */
  stderrIsTty?: boolean;
}

export async function runMain(args: string[], options: MainOptions = {}): Promise<MainRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    // CI is cleared unless a test sets it: the suite itself runs in CI, and most tests need the
    // person-at-a-keyboard behaviour (--update allowed).
    env: { ...process.env, CI: '', NO_COLOR: '', ...options.env },
    cwd: options.cwd ?? TEST_PROJECT,
    stdoutIsTty: options.stdoutIsTty ?? false,
    stderrIsTty: options.stderrIsTty ?? false,
  });
  return { code, stdout, stderr };
}

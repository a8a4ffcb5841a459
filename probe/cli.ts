// The command line: parse, call, print, exit code. Everything it decides is delegated to pure functions.
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { styleText } from 'node:util';
import { auditMatrix } from '../scenarios/audit.ts';
import { compareWithRecorded } from './compare.ts';
import { InputError } from './errors.ts';
import { EXIT, exitCodeFor } from './exit-code.ts';
import { HARNESS } from './harness.ts';
import { NO_COLOUR, renderTerminalReport, type Paint } from './render/terminal.ts';
import { readRecordedResult, serializeResult, writeFileAtomic } from './result-file.ts';
import { DEFAULT_TIMEOUT_MS, runMatrix, selectScenarios } from './run.ts';

export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly stdoutIsTty: boolean;
}

// probe/cli.ts and the built dist/cli.mjs both sit one folder below the project root.
const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_RECORDED = resolve(PROJECT_ROOT, 'results', 'recorded.json');
export const DEFAULT_OUT = resolve(PROJECT_ROOT, 'results', 'latest.json');

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

function positiveInteger(flag: string) {
  return (value: string): number => {
    const parsed = Number(value);
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(parsed) || parsed <= 0) {
      throw new InvalidArgumentError(`${flag} takes a whole number of milliseconds above 0, got '${value}'`);
    }
    return parsed;
  };
}

interface CliOptions {
  json: boolean;
  out?: string;
  case: string[];
  timeout: number;
  recorded?: string;
  update: boolean;
}

function buildProgram(io: CliIo): Command {
  return new Command(HARNESS.name)
    .description(
      'Run the 13-case isError/outputSchema audit against the pinned MCP TypeScript SDK clients, judge every case ' +
        'against the audit, and compare the run with the recorded result.',
    )
    .version(HARNESS.version)
    .option('--json', 'print the result JSON to stdout instead of the table', false)
    .option('--out <file>', 'write the result JSON to this file (default: results/latest.json)')
    .addOption(
      new Option('--case <pattern>', 'run only matching cases: a glob over ids (v2/*, */cold, **/error-*) or a word (off-schema); repeatable')
        .argParser((value: string, previous: string[]) => [...previous, value])
        .default([]),
    )
    .addOption(
      new Option('--timeout <ms>', 'per-case time limit; a case still running is recorded as a timeout')
        .argParser(positiveInteger('--timeout'))
        .default(DEFAULT_TIMEOUT_MS),
    )
    .option('--recorded <file>', 'recorded result to compare with (default: results/recorded.json)')
    .option('--update', 'rewrite the recorded result from this run (refused when CI is set)', false)
    .allowExcessArguments(false)
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr, outputError: () => {} });
}

function displayPath(path: string, cwd: string): string {
  const shown = relative(cwd, path);
  return shown && !shown.startsWith('..') && !isAbsolute(shown) ? shown : path;
}

export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const program = buildProgram(io);
  try {
    program.parse(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return EXIT.ok;
      io.stderr(`${HARNESS.name}: ${error.message.replace(/^error: /, '')} (see --help)\n`);
      return EXIT.usage;
    }
    throw error;
  }
  const options = program.opts<CliOptions>();
  try {
    return await runAudit(options, io);
  } catch (error) {
    if (error instanceof InputError) {
      io.stderr(`${HARNESS.name}: ${error.message}\n`);
      return EXIT.usage;
    }
    throw error;
  }
}

async function runAudit(options: CliOptions, io: CliIo): Promise<number> {
  const recordedPath = options.recorded ? resolve(io.cwd, options.recorded) : DEFAULT_RECORDED;
  const outPath = options.out ? resolve(io.cwd, options.out) : DEFAULT_OUT;
  if (options.update && isCi(io.env)) {
    // vitest's rule for snapshots: baselines are recorded on purpose by a person, never by CI.
    throw new InputError('--update rewrites the recorded result and is refused when CI is set');
  }
  if (options.update && options.case.length > 0) {
    throw new InputError('--update records the whole matrix; drop --case to use it');
  }
  const matrix = auditMatrix;
  const scenarios = selectScenarios(matrix.scenarios, options.case);
  if (scenarios.length === 0) {
    throw new InputError(`--case ${options.case.join(', ')} matches no case of matrix ${matrix.name}; ids look like ${matrix.scenarios[0]?.id}`);
  }
  // Read (and validate) the recorded result before running anything, so bad input changes nothing.
  const recorded = readRecordedResult(recordedPath);

  const result = await runMatrix(matrix, scenarios, { timeoutMs: options.timeout });
  const comparison = compareWithRecorded(recorded.kind === 'found' ? recorded.result : undefined, result, {
    fullMatrix: scenarios.length === matrix.scenarios.length,
  });
  const text = serializeResult(result);
  writeFileAtomic(outPath, text);
  if (options.update) writeFileAtomic(recordedPath, text);

  if (options.json) {
    io.stdout(text);
  } else {
    io.stdout(
      renderTerminalReport({
        result,
        comparison,
        recordedPath: displayPath(recordedPath, io.cwd),
        updatedRecorded: options.update,
        writtenPath: displayPath(outPath, io.cwd),
        paint: wantsColour(io) ? COLOUR : NO_COLOUR,
      }),
    );
  }
  return exitCodeFor({ result, comparison, updatedRecorded: options.update });
}

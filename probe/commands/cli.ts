// The command line: parse, call, print, exit code. What it decides is delegated to commands/ and the
// pure functions they call.
import { join } from 'node:path';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { runAuditCommand, type AuditOptions } from './audit.ts';
import { DEFAULT_EXPLORE_OUT, DEFAULT_OUT, DEFAULT_SWEEP_OUT, pathToPaste, RESULTS_DIR, withTerminalMessages, type CliIo } from './io.ts';
import { defaultJsonPathFor } from './report.ts';
import type { ExploreOptions } from './explore.ts';
import type { ReplayOptions } from './replay.ts';
import type { SweepOptions, SweepReportOptions } from './sweep.ts';
import { InputError, oneLine } from '../core/errors.ts';
import { EXIT } from '../core/exit-code.ts';
import { HARNESS } from '../core/harness.ts';
import { MAX_TIMER_MS } from '../core/timer.ts';
import { DEFAULT_TIMEOUT_MS } from '../engine/run.ts';

export type { CliIo } from './io.ts';
export { isCi, wantsColour } from './io.ts';

function positiveInteger(flag: string, unit: string, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    const parsed = Number(value);
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(parsed) || parsed <= 0) {
      throw new InvalidArgumentError(`${flag} takes a whole number${unit} above 0, got '${value}'`);
    }
    if (parsed > max) throw new InvalidArgumentError(`${flag} takes at most ${max}${unit.replace(/^ of/, '')}, got '${value}'`);
    return parsed;
  };
}

function integer(flag: string) {
  return (value: string): number => {
    const parsed = Number(value);
    if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(parsed) || Math.abs(parsed) > 2 ** 31 - 1) {
      throw new InvalidArgumentError(`${flag} takes a whole number (a 32-bit seed), got '${value}'`);
    }
    return parsed;
  };
}

const collect = (value: string, previous: string[]) => [...previous, value];
/** A repeatable release flag with no default: undefined until given, then every spec given, in order. */
const collectSpecs = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];
const releasesOption = (flag: string, description: string) => new Option(`${flag} <releases>`, `${description}; repeatable (every release once)`).argParser(collectSpecs);

const jobsOption = (what: string, default_: string) =>
  new Option('--jobs <n>', `${what} at once, one worker thread each (default: ${default_})`).argParser(positiveInteger('--jobs', ''));

const timeoutOption = () =>
  new Option('--timeout <ms>', 'per-case time limit; a case still running is recorded as a timeout')
    .argParser(positiveInteger('--timeout', ' of milliseconds', MAX_TIMER_MS))
    .default(DEFAULT_TIMEOUT_MS);

function reportOptions(command: Command, defaultOut: string): Command {
  return command
    .option('--json', 'print the sweep result JSON to stdout instead of the tables', false)
    .option('--ndjson', 'print one JSON line per release × case as each release finishes (in release order), then the change points and a summary', false)
    .option('--out <file>', `write the sweep result JSON to this file (default: ${defaultOut})`)
    .option('--baseline <file>', "recorded sweep baseline to compare with (default: the matrix's own, results/sweep-baseline.json for audit, results/sweep-baseline-<matrix>.json for the others)")
    .option('--recorded <file>', "recorded result of the pinned clients (default: the matrix's own, results/recorded.json for audit, results/recorded-extended.json for extended)")
    .option('--update', 'record this sweep into the baseline (refused when CI is set)', false)
    .option('--gate-identity', "also fail on identity changes (only the error's class name differs, e.g. ZodError → $ZodError); by default the baseline and newest-vs-pinned gates fail on behaviour only", false)
    .option('--format <format>', 'table (default), html (one self-contained page: case × release grid, change points, details) or markdown (evidence of the change points, for an issue or a CI artifact), to --out or stdout; the result JSON then goes to its default path');
}

// Issue 20: a .ts/.mts scenario file is code, run only on the user's word (JSON scenario files are data).
const ALLOW_CODE = ['--allow-scenario-code', 'let --scenarios run its .ts/.mts scenario modules, which are code (bundled from their folder only, then run in a child Node with no file system); JSON files need no trust'] as const;

type Action = () => Promise<number>;

function unknownCommand(program: Command, name: string): Action {
  const commands = program.commands.map((c) => c.name()).join(', ');
  return () => Promise.reject(new InputError(`unknown command '${name}': the commands are ${commands} (see --help)`));
}

/**
 * Commander's message as the one line the CLI prints: commander 14 puts its suggestion on a line of its
 * own (lib/suggestSimilar.js, `\n(Did you mean --format?)`), which oneLine would show as a literal `\n`.
 */
function commanderMessage(error: CommanderError): string {
  return error.message.replace(/^error: /, '').replace(/\n\(Did you mean (.*)\?\)$/, '; did you mean $1?');
}

function buildProgram(io: CliIo, argv: readonly string[], setAction: (action: Action) => void): Command {
  // The default outputs as they are from here: an installed package writes to ./mcp-sdk-probe-results/,
  // not to the results/ the help used to name (issue 21: paths as the person can use them).
  const shown = (path: string) => pathToPaste(path, io.cwd);
  // replay.ts's DEFAULT_REPLAY_OUT (that module loads only when replay runs).
  const replayOut = join(RESULTS_DIR, 'replay-latest.json');
  const program = new Command(HARNESS.name)
    .description(
      'Run the 13-case isError/outputSchema audit against the pinned MCP TypeScript SDK clients (or other ' +
        'releases of them), judge every case against the audit, and compare the run with the recorded result.',
    )
    .version(HARNESS.version)
    .enablePositionalOptions()
    .option('--format <format>', 'table (default), json, markdown (evidence for a bug report), junit (for CI) or repro (the selected cases as a standalone folder for a bug report)')
    .option('--json', 'the same as --format json', false)
    .option('--out <file>', `write the output here: the result JSON (table, json; default: ${shown(defaultJsonPathFor(DEFAULT_OUT, io))}), the document (markdown, junit; default stdout) or the repro folder (repro; required, new or empty)`)
    .addOption(
      new Option('--case <pattern>', 'run only matching cases: a glob over ids (v2/*, */cold, **/error-*) or a word (off-schema); repeatable')
        .argParser(collect)
        .default([]),
    )
    .addOption(timeoutOption())
    .option('--recorded <file>', 'recorded result to compare with (default: results/recorded.json)')
    .option('--update', 'rewrite the recorded result from this run (refused when CI is set)', false)
    .option('--gate-identity', "also fail on identity changes (only the error's class name or message differs, e.g. ZodError → $ZodError, or another release's or Node's wording); by default the comparison with the recorded result fails on behaviour only", false)
    // Collected, not replaced: a second --v1 is refused naming both (issue 21), never silently dropped.
    .addOption(new Option('--v1 <release>', 'run v1 cases with this @modelcontextprotocol/sdk release: a version, latest, a .tgz or a package folder').argParser(collectSpecs))
    .addOption(new Option('--v2 <release>', 'run v2 cases with this @modelcontextprotocol/client release: a version, latest, a .tgz or a package folder').argParser(collectSpecs))
    .option('--prerelease', 'let latest and ranges resolve to prereleases', false)
    .option('--matrix <name>', 'audit (default: the 13 cases), extended (the cases the audit left out), ecosystem (the AI SDK and LangChain clients beside v1 and v2) or all')
    .option('--scenarios <dir>', 'also run the scenario files (.json, .ts) in this folder beside the matrix')
    .option(ALLOW_CODE[0], ALLOW_CODE[1], false)
    .addOption(jobsOption('cases', 'one thread per 32 cases, up to the number of cores'))
    .option('--resume', 'continue an interrupted run from its journal (<result file>.journal.ndjson): run only the cases it lacks', false)
    // An operand here is a mistyped command (`swep`): worded by unknownCommand, not as commander's
    // "too many arguments".
    .allowExcessArguments(true)
    .action(() => setAction(program.args[0] === undefined ? () => runAuditCommand(program.opts<AuditOptions>(), io, argv) : unknownCommand(program, program.args[0])));

  const sweep = program
    .command('sweep')
    .description('run a matrix (the audit by default) against every release in the given ranges and report where behaviour changed')
    .addOption(releasesOption('--v1', '@modelcontextprotocol/sdk releases: 1.10.0..latest, ^1.20, latest, 1.31.0, a .tgz or a folder'))
    .addOption(releasesOption('--v2', '@modelcontextprotocol/client releases, as for --v1'))
    .addOption(releasesOption('--ai-sdk', '@ai-sdk/mcp releases, as for --v1, running the ai-sdk cases (with --matrix ecosystem)'))
    .addOption(releasesOption('--server-v1', 'a server sweep: @modelcontextprotocol/sdk releases as the fixtures\' server (low-level Server, McpServer), with the pinned clients; not with --v1/--v2'))
    .addOption(releasesOption('--server-v2', 'a server sweep: @modelcontextprotocol/server releases (McpServer, createMcpHandler), as for --server-v1'))
    .option('--prerelease', 'let ranges include prereleases', false)
    .addOption(jobsOption('releases', 'the number of cores'))
    .option('--shard <i/n>', 'run only the i-th of n round-robin slices of the releases (combine with merge)')
    .option('--matrix <name>', 'audit (default: the 13 cases), extended (the cases the audit left out), ecosystem (the AI SDK and LangChain clients beside v1 and v2; --ai-sdk needs it) or all')
    .option('--scenarios <dir>', 'also run the scenario files (.json, .ts) in this folder against every release')
    .option(ALLOW_CODE[0], ALLOW_CODE[1], false)
    .addOption(
      new Option('--case <pattern>', 'run only matching cases: a glob over ids (v2/*, */cold) or a word; repeatable')
        .argParser(collect)
        .default([]),
    )
    .addOption(timeoutOption())
    .option('--resume', 'continue an interrupted sweep from its journal (<result file>.journal.ndjson): run only the releases it lacks', false)
    .allowExcessArguments(false)
    // Commands other than the audit load when chosen, so the audit's start-up does not pay for them.
    .action(() => setAction(async () => (await import('./sweep.ts')).runSweepCommand(sweep.opts<SweepOptions>(), io)));
  reportOptions(sweep, shown(DEFAULT_SWEEP_OUT));

  const replay = program
    .command('replay')
    .description('show how every client and discovery mode treats one captured tool result (see docs/bug-reports.md)')
    .argument('<capture>', 'a JSON file: { "tool", "result" }, or the logged JSON-RPC messages (tools/list and tools/call responses)')
    .addOption(
      new Option('--expect <expectation>', 'what a conforming client should do: returned, rejected or rejected:<code>, optionally for some cases (v2/*=returned); repeatable')
        .argParser(collect)
        .default([]),
    )
    .option('--clients <lines>', 'the client lines to replay through, comma-separated (default: every line: v1,v2,ai-sdk,langchain; over several releases, the lines --v1/--v2/--ai-sdk vary)')
    .addOption(releasesOption('--v1', 'replay through these @modelcontextprotocol/sdk releases: a version, latest, a .tgz or a folder (that release), or a range such as 1.20.0..latest (a sweep of the capture)'))
    .addOption(releasesOption('--v2', '@modelcontextprotocol/client releases, as for --v1'))
    .addOption(releasesOption('--ai-sdk', '@ai-sdk/mcp releases, as for --v1'))
    .option('--prerelease', 'let latest and ranges resolve to prereleases', false)
    .option('--baseline <file>', 'over several releases: the sweep baseline to compare with (default: results/sweep-baseline-replay-<capture>.json)')
    .option('--update', 'over several releases: record this sweep into the baseline (refused when CI is set)', false)
    // Defined to be refused with a reason (replay.ts), not as an unknown option: the capture is the server's answer.
    .addOption(new Option('--server-v1 <releases>').argParser(collectSpecs).hideHelp())
    .addOption(new Option('--server-v2 <releases>').argParser(collectSpecs).hideHelp())
    .option('--format <format>', 'table (default), json, markdown, junit or repro (the selected cases as a standalone folder); over several releases table, json or html, as sweep writes them')
    .option('--json', 'the same as --format json', false)
    .option('--out <file>', `write the output here: the result JSON (table, json; default: ${shown(defaultJsonPathFor(replayOut, io))}; over several releases the sweep result, default: ${shown(DEFAULT_SWEEP_OUT)}), the document (markdown, junit, html; default stdout) or the repro folder (repro; required, new or empty)`)
    .addOption(
      new Option('--case <pattern>', 'replay only matching cases (v1/warm/*); with --format repro, each must be one it can write standalone; repeatable')
        .argParser(collect)
        .default([]),
    )
    .addOption(timeoutOption())
    .addOption(jobsOption('cases', 'one thread per 32 cases, up to the number of cores'))
    .action((file: string) => setAction(async () => (await import('./replay.ts')).runReplayCommand(file, replay.opts<ReplayOptions>(), io, argv)));

  const merge = program
    .command('merge')
    .description('combine the outputs of sweep --shard i/n into the result of the whole sweep')
    .argument('<files...>', 'sweep result files written by sweep --shard ... --out FILE')
    .action((files: string[]) =>
      setAction(async () => (await import('./sweep.ts')).runMergeCommand(files, merge.opts<SweepReportOptions>(), io)),
    );
  reportOptions(merge, shown(DEFAULT_SWEEP_OUT));

  // The default budget runs in about 30 s here against both pinned lines (docs/explore.md); the default
  // seed is the one results/explore-known.json is recorded with.
  const explore = program
    .command('explore')
    .description('generate sequences of server states and client actions, run them against the real clients, check the oracles and shrink every violation to a minimal replayable finding (see docs/explore.md)')
    .addOption(new Option('--runs <n>', 'sequences to generate (shrinking comes on top)').argParser(positiveInteger('--runs', '')).default(400))
    .addOption(new Option('--seed <s>', 'the seed: the same seed gives the same sequences and findings').argParser(integer('--seed')).default(13))
    .option('--clients <lines>', 'client lines to run, comma-separated', 'v1,v2')
    .option('--out <dir>', `write each finding here as <class>.json (replayable) and <class>.md (default: ${shown(DEFAULT_EXPLORE_OUT)})`)
    .option('--known <file>', 'known findings to compare with (default: results/explore-known.json)')
    .option('--update', 'record this run\'s findings as the known findings (refused when CI is set)', false)
    .option('--replay <file>', 'run one finding file again instead of exploring; exit 1 while it reproduces, 0 once it does not, 125 when it could not run')
    .option('--format <format>', 'table (default) or markdown (with --replay: the finding as a bug report)')
    .allowExcessArguments(false)
    .action(() => setAction(async () => (await import('./explore.ts')).runExploreCommand(explore.opts<ExploreOptions>(), io)));

  // Commander adds its implicit `help [command]` only to a program without an action of its own (commander
  // 14 Command._getHelpCommand), and the audit is the root's action: `help sweep` was "too many arguments".
  program
    .command('help')
    .description('show the help of a command')
    .argument('[command]', 'the command (default: the whole program)')
    .allowExcessArguments(false)
    .action((name: string | undefined) => {
      const command = name === undefined ? program : program.commands.find((c) => c.name() === name);
      setAction(command ? async () => (command.outputHelp(), EXIT.ok) : unknownCommand(program, name ?? ''));
    });

  return program
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr, outputError: () => {} });
}

/** The commands under the root, in --help order (docs/cli.md has a section for each: probe/bin/docs.ts). */
export function commandNames(io: CliIo): string[] {
  return buildProgram(io, [], () => {}).commands.map((command) => command.name());
}

export async function main(argv: readonly string[], processIo: CliIo): Promise<number> {
  const io = withTerminalMessages(processIo);
  let action: Action | undefined;
  const program = buildProgram(io, argv, (chosen) => {
    action = chosen;
  });
  // Which command's usage was wrong (commander reports it through that command's outputError), so the
  // message points at its own help: the root's --help lists only the audit's options.
  let misused: Command | undefined;
  // Commander's own default reads process.stdout's width (command.js _outputConfiguration), so help run
  // in-process wrapped to whatever terminal ran the tests or `npm run docs`: the width comes from io,
  // else 80, commander's width when stdout is not a terminal (help.js prepareContext).
  const getOutHelpWidth = () => (io.stdoutIsTty && io.columns ? io.columns : 80);
  for (const command of [program, ...program.commands]) {
    command.exitOverride().configureOutput({ writeOut: io.stdout, writeErr: io.stderr, outputError: () => void (misused = command), getOutHelpWidth });
  }
  let chosen: Command | undefined;
  program.hook('preAction', (_, actionCommand) => void (chosen = actionCommand));
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return EXIT.ok;
      const help = misused && misused !== program ? `${misused.name()} --help` : '--help';
      io.stderr(`${HARNESS.name}: ${oneLine(commanderMessage(error))} (see ${help})\n`);
      return EXIT.usage;
    }
    throw error;
  }
  if (!action) return EXIT.usage;
  // enablePositionalOptions: the root's options before a command's name are parsed as the audit's, and
  // the command never sees them (`--case v1/* sweep` swept every case): refused, not dropped silently.
  const early = chosen && chosen !== program ? program.options.find((o) => program.getOptionValueSource(o.attributeName()) === 'cli') : undefined;
  if (chosen && early) {
    io.stderr(`${HARNESS.name}: ${early.long ?? early.flags} is given before '${chosen.name()}', which does not read it there: a command's options go after its name (see ${chosen.name()} --help)\n`);
    return EXIT.usage;
  }
  try {
    return await action();
  } catch (error) {
    if (error instanceof InputError) {
      io.stderr(`${HARNESS.name}: ${oneLine(error.message)}\n`);
      return EXIT.usage;
    }
    throw error;
  }
}

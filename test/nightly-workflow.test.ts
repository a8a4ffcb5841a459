// The nightly workflow (.github/workflows/nightly-sweep.yml), offline: it is valid YAML of the expected
// shape, every `npx mcp-sdk-probe …` line uses a command and flags the CLI has (checked against the CLI's
// own help and parsers, for every value of the job matrix), and the gate merges exactly the shard files
// the sweep jobs wrote. Nothing runs a sweep here.
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { chosenMatrices } from '../probe/commands/audit.ts';
import { defaultBaselineFor, sweepRequests } from '../probe/commands/sweep.ts';
import { readJsonFile } from '../probe/io/json-files.ts';
import { SweepBaselineSchema } from '../probe/sweep/gates.ts';
import { parseReleaseSpec } from '../probe/releases/spec.ts';
import { parseShard } from '../probe/sweep/shard.ts';
import { ROOT } from './helpers/cli.ts';
import { runMain } from './helpers/main.ts';

interface Step {
  readonly name?: string;
  readonly if?: string;
  readonly run?: string;
  readonly uses?: string;
  readonly with?: Record<string, unknown>;
}
interface Job {
  readonly needs?: string;
  readonly strategy?: { readonly matrix: Record<string, readonly (string | number)[]> };
  readonly steps: readonly Step[];
}

const text = readFileSync(join(ROOT, '.github', 'workflows', 'nightly-sweep.yml'), 'utf8');
const workflow = parse(text) as { name: string; on: Record<string, unknown>; jobs: Record<string, Job> };

/** Every combination of a job's matrix values. */
function combinations(matrix: Record<string, readonly (string | number)[]> = {}): Record<string, string>[] {
  return Object.entries(matrix).reduce<Record<string, string>[]>(
    (all, [key, values]) => all.flatMap((combo) => values.map((value) => ({ ...combo, [key]: String(value) }))),
    [{}],
  );
}

/** A step's `if:` for one matrix combination; only the `matrix.x == 'v'` form is used (anything else fails here). */
function applies(step: Step, combo: Record<string, string>): boolean {
  if (step.if === undefined || /^(always|failure)\(\)/.test(step.if)) return true;
  const match = /^matrix\.(\w+) == '([^']*)'$/.exec(step.if);
  if (!match) throw new Error(`unexpected if: ${step.if}`);
  return combo[match[1]!] === match[2];
}

/** The probe commands a step runs for one combination, as argv (expressions filled in, `|| …` dropped). */
function probeCommands(step: Step, combo: Record<string, string>): string[][] {
  const filled = (step.run ?? '').replace(/\$\{\{\s*matrix\.(\w+)\s*\}\}/g, (_m, key: string) => {
    if (!(key in combo)) throw new Error(`matrix.${key} is not in the job's matrix`);
    return combo[key]!;
  });
  if (/\$\{\{/.test(filled)) throw new Error(`an expression left in: ${filled}`);
  return filled
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('npx mcp-sdk-probe '))
    .map((line) => line.replace(/\s*\|\|.*$/, '').split(/\s+/).slice(2));
}

const HELP = new Map<string, string>();
async function helpOf(command: string): Promise<string> {
  if (!HELP.has(command)) {
    const run = await runMain([command, '--help']);
    expect(run.code).toBe(0);
    HELP.set(command, run.stdout);
  }
  return HELP.get(command)!;
}

/** Checks one command line against the CLI: known flags, values where the flag takes one, values its parsers accept. */
async function checkCommand(argv: readonly string[]): Promise<{ command: string; flags: Map<string, string | true>; files: string[] }> {
  const [command, ...rest] = argv;
  expect(['sweep', 'merge']).toContain(command);
  const help = await helpOf(command!);
  const flags = new Map<string, string | true>();
  const files: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const token = rest[i]!;
    if (!token.startsWith('--')) {
      files.push(token);
      continue;
    }
    // An option line of the help: `  -x, --flag <value>  description` (not a mention in a description).
    const declared = new RegExp(`^\\s+(?:-\\w, )?${token}( <[^>]+>)?(?:\\s|$)`, 'm').exec(help);
    expect(declared, `${command} ${token} is not an option of the CLI`).not.toBeNull();
    if (declared![1]) {
      const value = rest[++i];
      expect(value !== undefined && !value.startsWith('--'), `${command} ${token} needs a value`).toBe(true);
      flags.set(token, value!);
    } else flags.set(token, true);
  }
  for (const [flag, value] of flags) {
    if (typeof value !== 'string') continue;
    if (flag === '--matrix') chosenMatrices(value);
    if (flag === '--shard') parseShard(value);
    if (flag === '--format') expect(['table', 'html', 'markdown']).toContain(value);
    if (['--v1', '--v2', '--server-v1', '--server-v2'].includes(flag)) expect(parseReleaseSpec(flag, value).kind).toBe('registry');
  }
  if (command === 'sweep') {
    const get = (flag: string) => (typeof flags.get(flag) === 'string' ? (flags.get(flag) as string) : undefined);
    sweepRequests({ v1: get('--v1'), v2: get('--v2'), serverV1: get('--server-v1'), serverV2: get('--server-v2') });
  }
  return { command: command!, flags, files };
}

describe('the nightly workflow', () => {
  it('is a scheduled workflow with a sweep job per side and shard and a gate job per side', () => {
    expect(workflow.name).toBe('nightly-sweep');
    expect(Object.keys(workflow.on)).toEqual(['schedule', 'workflow_dispatch']);
    expect(workflow.jobs.sweep?.strategy?.matrix).toEqual({ side: ['client', 'server'], shard: [1, 2] });
    expect(workflow.jobs.gate?.needs).toBe('sweep');
    expect(workflow.jobs.gate?.strategy?.matrix).toEqual({ side: ['client', 'server'] });
  });

  it('runs only commands and flags the CLI has, and sweeps --matrix all on each side', async () => {
    const sweptOuts = new Map<string, string[]>();
    for (const combo of combinations(workflow.jobs.sweep!.strategy!.matrix)) {
      const commands = workflow.jobs.sweep!.steps.filter((step) => applies(step, combo)).flatMap((step) => probeCommands(step, combo));
      // One sweep per side and shard, of the whole matrix, of that side's releases.
      expect(commands).toHaveLength(1);
      const { command, flags } = await checkCommand(commands[0]!);
      expect(command).toBe('sweep');
      expect(flags.get('--matrix')).toBe('all');
      expect(flags.get('--shard')).toBe(`${combo.shard}/2`);
      expect([...flags.keys()].some((flag) => flag.startsWith(combo.side === 'server' ? '--server-' : '--v'))).toBe(true);
      // Each range ends at latest, so the newest-vs-pinned gate runs on the merge.
      for (const flag of ['--v1', '--v2', '--server-v1', '--server-v2']) if (flags.has(flag)) expect(flags.get(flag)).toMatch(/\.\.latest$/);
      sweptOuts.set(combo.side!, [...(sweptOuts.get(combo.side!) ?? []), flags.get('--out') as string]);
    }
    for (const combo of combinations(workflow.jobs.gate!.strategy!.matrix)) {
      const commands = workflow.jobs.gate!.steps.flatMap((step) => probeCommands(step, combo));
      expect(commands.length).toBeGreaterThanOrEqual(2);
      const checked = await Promise.all(commands.map(checkCommand));
      // The gate merges exactly the shard files this side's sweep jobs wrote, and writes both reports.
      for (const { command, files } of checked) {
        expect(command).toBe('merge');
        expect(files).toEqual(sweptOuts.get(combo.side!));
      }
      expect(checked.map(({ flags }) => flags.get('--format')).sort()).toEqual(['html', 'markdown']);
    }
  });

  it('uploads the HTML report always and the Markdown evidence when the gate failed', () => {
    const uploads = workflow.jobs.gate!.steps.filter((step) => step.uses?.startsWith('actions/upload-artifact'));
    const html = uploads.find((step) => String(step.with?.path).includes('.html'));
    const markdown = uploads.find((step) => String(step.with?.path).includes('.md'));
    expect(html?.if).toBe('always()');
    expect(markdown?.if).toBe("failure() && steps.gate.outcome == 'failure'");
    const gate = workflow.jobs.gate!.steps.find((step) => (step as { id?: string }).id === 'gate');
    expect(gate?.run).toContain('--format markdown --out sweep-${{ matrix.side }}.md');
    // The upload paths are the files the merge steps write.
    expect(String(html?.with?.path)).toContain('sweep-${{ matrix.side }}.html');
    expect(markdown?.with?.path).toBe('sweep-${{ matrix.side }}.md');
  });

  it('gates each side on a committed baseline of --matrix all and that side, inside the ranges it sweeps', async () => {
    for (const combo of combinations(workflow.jobs.sweep!.strategy!.matrix).filter((c) => c.shard === '1')) {
      const side = combo.side as 'client' | 'server';
      const [command] = workflow.jobs.sweep!.steps.filter((step) => applies(step, combo)).flatMap((step) => probeCommands(step, combo));
      const { flags } = await checkCommand(command!);
      // The merge reads the matrix's default baseline of the side (no --baseline in the gate job): it must be
      // committed (read from the checkout: the tests' RESULTS_DIR is a scratch copy).
      const file = join(ROOT, 'results', basename(defaultBaselineFor(String(flags.get('--matrix')), side)));
      const baseline = readJsonFile(file, SweepBaselineSchema, 'sweep baseline');
      expect(baseline).toMatchObject({ matrix: 'all', side });
      expect(baseline.releases.length).toBeGreaterThan(0);
      // Every recorded release is one the nightly sweeps (its line's flag, at or after the range's start).
      for (const { release } of baseline.releases) {
        const match = /^(?:server-)?(v[12])@(\d+)\.(\d+)\.(\d+)$/.exec(release);
        expect(match, release).not.toBeNull();
        const flag = `--${side === 'server' ? 'server-' : ''}${match![1]}`;
        const from = String(flags.get(flag)).replace(/\.\.latest$/, '').split('.').map(Number);
        const version = match!.slice(2).map(Number);
        expect(flags.has(flag), `${release}: ${flag} is not swept`).toBe(true);
        expect(version[0]! * 1e6 + version[1]! * 1e3 + version[2]! >= from[0]! * 1e6 + from[1]! * 1e3 + from[2]!, `${release} is before ${flags.get(flag)}`).toBe(true);
      }
    }
  });

  it('the checks catch a flag the CLI does not have', async () => {
    await expect(checkCommand(['sweep', '--matrix', 'all', '--server-v3', '1.0.0..latest'])).rejects.toThrow(/--server-v3 is not an option/);
    await expect(checkCommand(['sweep', '--matrix', 'all', '--v1', 'latest', '--server-v1', 'latest'])).rejects.toThrow(/a sweep varies one side/);
    await expect(checkCommand(['merge', 'a.json', '--format', 'pdf'])).rejects.toThrow();
  });
});

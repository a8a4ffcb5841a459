// docs/cli.md is generated (npm run docs, probe/bin/docs.ts): it must be exactly what the CLI prints now.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_REFERENCE, renderCliReference } from '../probe/bin/docs.ts';
import { main } from '../probe/commands/cli.ts';
import { EXIT, EXIT_MEANING, REPRO_EXIT, REPRO_EXIT_MEANING } from '../probe/core/exit-code.ts';
import { ROOT } from './helpers/cli.ts';
import { runMain } from './helpers/main.ts';
import { TEST_PROJECT } from './helpers/test-project.ts';

describe('docs/cli.md', () => {
  it('is what npm run docs writes from the command definitions (run npm run docs when this fails)', async () => {
    const reference = await renderCliReference({ cwd: TEST_PROJECT });
    expect(readFileSync(join(ROOT, CLI_REFERENCE), 'utf8')).toBe(reference);
  });

  it("holds every command's --help verbatim, and every exit code with its meaning", async () => {
    const reference = readFileSync(join(ROOT, CLI_REFERENCE), 'utf8');
    for (const argv of [['--help'], ['sweep', '--help'], ['replay', '--help'], ['merge', '--help'], ['explore', '--help'], ['help', '--help']]) {
      const { code, stdout } = await runMain(argv);
      expect(code).toBe(0);
      expect(reference).toContain(`\`\`\`\n${stdout.trimEnd()}\n\`\`\``);
    }
    for (const key of Object.keys(EXIT) as (keyof typeof EXIT)[]) expect(reference).toContain(`| ${EXIT[key]} | ${EXIT_MEANING[key]} |`);
    for (const key of Object.keys(REPRO_EXIT) as (keyof typeof REPRO_EXIT)[]) expect(reference).toContain(`| ${REPRO_EXIT[key]} | ${REPRO_EXIT_MEANING[key]} |`);
  });

  // Commander's default width is process.stdout's when it is a terminal: without io's width, help run
  // in-process wrapped to whatever terminal ran the tests, and the reference differed from machine to machine.
  it('wraps --help at io.columns on a terminal and at 80 columns otherwise, whatever process.stdout is', async () => {
    const help = async (stdoutIsTty: boolean, columns: number | undefined) => {
      let out = '';
      const io = { stdout: (text: string) => void (out += text), stderr: () => {}, env: {}, cwd: TEST_PROJECT, stdoutIsTty, stderrIsTty: false, columns };
      expect(await main(['sweep', '--help'], io)).toBe(0);
      return Math.max(...out.split('\n').map((line) => line.length));
    };
    const { isTTY, columns } = process.stdout;
    try {
      Object.assign(process.stdout, { isTTY: true, columns: 200 });
      expect(await help(false, undefined)).toBeLessThanOrEqual(80);
      expect(await help(false, 200)).toBeLessThanOrEqual(80);
      expect(await help(true, 72)).toBeLessThanOrEqual(72);
      expect(await help(true, 120)).toBeGreaterThan(80);
    } finally {
      Object.assign(process.stdout, { isTTY, columns });
    }
  });
});

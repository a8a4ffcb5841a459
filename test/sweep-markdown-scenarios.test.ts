// The sweep Markdown's Reproduce command re-runs the sweep a reader was handed: with --scenarios, the
// user's cases are part of it, so the command names their folder (as typed when it is inside the working
// folder, else by its file name: never a path of the reporter's machine) and says the reader needs that
// folder, and keeps --allow-scenario-code when the sweep had it (issue 21 items 1, 6). Offline: the
// pinned v1 client (`--v1 1.32.2` needs no registry) and a JSON scenario file.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runMain } from './helpers/main.ts';

const tool = { name: 't', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { v: { type: 'number' } }, required: ['v'] } };
const scenario = { shape: 'mine', tool, result: { content: [], structuredContent: { v: 'x' } }, expected: { 'v1/warm': 'rejected:-32602' } };

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-sweep-markdown-scenarios-'));
  for (const folder of [join(dir, 'work', 'my-cases'), join(dir, 'elsewhere', 'team-cases')]) {
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'mine.json'), JSON.stringify(scenario));
  }
});

async function reproduceSection(scenarios: string, extra: string[] = []): Promise<string> {
  const out = join(dir, `sweep-${extra.length}.md`);
  const run = await runMain(['sweep', '--v1', '1.32.2', '--scenarios', scenarios, ...extra, '--case', 'v1/warm/mine', '--format', 'markdown', '--out', out, '--baseline', join(dir, 'none.json')], {
    cwd: join(dir, 'work'),
  });
  expect(run.code, run.stderr).toBe(0);
  const page = readFileSync(out, 'utf8');
  expect(page).not.toContain(dir);
  return page.slice(page.indexOf('## Reproduce'));
}

describe('sweep --format markdown with --scenarios', () => {
  it('a folder inside the working folder is named as typed, and the reader is told they need it', async () => {
    const section = await reproduceSection('my-cases');
    expect(section).toContain('node_modules/.bin/mcp-sdk-probe sweep --v1 1.32.2 --scenarios my-cases\n');
    expect(section).toContain('needs the folder `my-cases`');
    expect(section).not.toContain('--allow-scenario-code');
  });

  it('a folder outside it is named by its file name, and --allow-scenario-code is kept', async () => {
    const section = await reproduceSection(join(dir, 'elsewhere', 'team-cases'), ['--allow-scenario-code']);
    expect(section).toContain('node_modules/.bin/mcp-sdk-probe sweep --v1 1.32.2 --scenarios team-cases --allow-scenario-code\n');
    expect(section).toContain('needs the folder `team-cases`');
  });
});

// --format repro, as a maintainer would run it: the generated folder, `npm install` from the real
// registry (nothing of this project), then `node repro.mjs`, which must exit 0. Online and slow; runs
// under `npm run test:releases` (vitest.releases.config.ts), skipped otherwise.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { main, type CliIo } from '../../probe/commands/cli.ts';
import { ROOT } from '../helpers/cli.ts';

const CAPTURE = join(ROOT, 'scenarios', 'captures', 'error-with-structured-content.json');

let base: string;
beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-repro-install-'));
});

function run(command: string, args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(command, args, { cwd, timeout: 280_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function generate(argv: string[], name: string): Promise<string> {
  const out = join(base, name);
  let stderr = '';
  const io: CliIo = {
    stdout: () => {},
    stderr: (text) => void (stderr += text),
    // Keep the default result JSON out of the checkout.
    env: { MCP_SDK_PROBE_RESULTS_DIR: join(base, 'results'), CI: '' },
    cwd: base,
    stdoutIsTty: false,
    stderrIsTty: false,
  };
  const code = await main([...argv, '--format', 'repro', '--out', out], io);
  expect(stderr).toContain('Standalone reproduction written');
  expect(code).toBe(0);
  return out;
}

describe.skipIf(!process.env.MCP_SDK_PROBE_RELEASE_TESTS)('a repro folder installs from the registry and reproduces', () => {
  it.each([
    ['a v1 audit case', ['--case', 'v1/warm/error-off-schema'], 'v1-audit'],
    ['a v2 audit case', ['--case', 'v2/warm/off-schema-success'], 'v2-audit'],
    ['a replay case', ['replay', CAPTURE, '--case', 'v2/warm/error-with-structured-content'], 'replay'],
  ])('%s', async (_name, argv, folder) => {
    const dir = await generate(argv, folder);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const install = await run(npm, ['install', '--ignore-scripts', '--no-audit', '--no-fund'], dir);
    expect(install.stderr.includes('ERR!') ? install.stderr : '', 'npm install').toBe('');
    expect(install.code).toBe(0);
    // Exactly the pinned versions were installed.
    const pinned = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).dependencies as Record<string, string>;
    for (const [name, version] of Object.entries(pinned)) {
      expect(JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')).version, name).toBe(version);
    }
    const repro = await run(process.execPath, ['repro.mjs'], dir);
    expect(repro.stderr).toContain('reproduced');
    expect(repro.code).toBe(0);
    expect(repro.stdout.trimEnd().split('\n')).toHaveLength(1);
  });
});

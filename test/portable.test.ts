// Evidence is read on other machines: no output format names a path of the machine it was made on,
// wherever the user's files are (a recorded file and a capture outside the working folder included).
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/cli.ts';
import { runMain } from './helpers/main.ts';

/** Absolute paths this run could leak: the checkout, the working folder, the temporary folder, home. */
function leaks(text: string, ...also: string[]): string[] {
  return [ROOT, tmpdir(), homedir(), ...also].filter((path) => path.length > 1 && text.includes(path));
}

describe('no output names a path of this machine', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-portable-'));
  const elsewhere = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-elsewhere-'));
  const recorded = join(elsewhere, 'recorded.json');
  copyFileSync(join(ROOT, 'results', 'recorded.json'), recorded);
  const capture = join(elsewhere, 'capture.json');
  copyFileSync(join(ROOT, 'scenarios', 'captures', 'error-with-structured-content.json'), capture);

  it.each([
    ['table', ['--out', 'latest.json']],
    ['json', ['--format', 'json', '--out', 'latest.json']],
    ['markdown', ['--format', 'markdown', '--recorded', recorded]],
    ['junit', ['--format', 'junit', '--recorded', recorded]],
    ['replay table', ['replay', capture, '--out', 'replay.json']],
    ['replay json', ['replay', capture, '--format', 'json', '--out', 'replay.json']],
    ['replay markdown', ['replay', capture, '--format', 'markdown']],
    ['replay junit', ['replay', capture, '--format', 'junit']],
  ])('%s', async (_format, args) => {
    const run = await runMain(args, { cwd });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(leaks(run.stdout, cwd, elsewhere)).toEqual([]);
    // The result JSON it wrote: in the working folder when --out named one, else the default path.
    const written = args.includes('--out') ? join(cwd, args[args.indexOf('--out') + 1]!) : undefined;
    if (written) expect(leaks(readFileSync(written, 'utf8'), cwd, elsewhere)).toEqual([]);
  });

  it('the check can fail: a path of this machine in the text is caught', () => {
    expect(leaks(`Compared with ${recorded}: 13 matched`, elsewhere)).toContain(elsewhere);
    expect(leaks('Compared with recorded.json: 13 matched', elsewhere)).toEqual([]);
  });
});

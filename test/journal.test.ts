// An interrupted run leaves its result file as it was and its finished cases in the journal; --resume runs
// only the rest and writes the same result a run without interruption writes.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ResultFileSchema } from '../probe/core/domain.ts';
import { openJournal, readJournal } from '../probe/io/journal.ts';
import { extendedMatrix } from '../scenarios/extended/index.ts';
import { LAUNCHER, ROOT } from './helpers/cli.ts';
import { runMain } from './helpers/main.ts';
import { pinnedPart } from './helpers/pinned-run.ts';

// The edge-values family's warm cases: 36 quick in-memory cases.
const ARGS = ['--matrix', 'extended', '--case', '*/warm/*-structured-*', '--jobs', '1'];

function lines(path: string): number {
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').length - 1 : 0;
}

describe('run journal', () => {
  it('a run killed midway resumes with --resume into the result an uninterrupted run writes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-journal-'));
    const out = join(dir, 'result.json');
    const journal = `${out}.journal.ndjson`;
    writeFileSync(out, 'the previous result\n');
    const child = spawn(process.execPath, [LAUNCHER, ...ARGS, '--out', out], { cwd: ROOT, stdio: 'ignore' });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // Kill it once a few cases are journalled (the header is line 1).
    const started = Date.now();
    while (lines(journal) < 6 && Date.now() - started < 20_000) await new Promise((resolve) => setTimeout(resolve, 20));
    child.kill('SIGTERM');
    await exited;
    const finished = lines(journal) - 1;
    expect(finished).toBeGreaterThanOrEqual(5);
    expect(finished).toBeLessThan(36);
    // The result file is as it was: only a whole result ever replaces it.
    expect(readFileSync(out, 'utf8')).toBe('the previous result\n');
    // A kill mid-write leaves half a line: --resume drops it rather than gluing the next record onto it.
    writeFileSync(journal, `${readFileSync(journal, 'utf8')}{"kind":"case","rec`);

    const resumed = await runMain([...ARGS, '--out', out, '--resume']);
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    expect(existsSync(journal)).toBe(false);
    const result = ResultFileSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
    const ids = new Set(result.cases.map((c) => c.id));
    const expected = pinnedPart(extendedMatrix).cases.filter((c) => ids.has(c.id));
    expect(result.cases).toHaveLength(36);
    expect(result.cases.map((c) => [c.id, c.observed])).toEqual(expected.map((c) => [c.id, c.observed]));
  }, 60_000);

  it('a resumed journal continues after its last whole line, dropping a line the interruption cut off', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-journal-'));
    const path = join(dir, 'r.json.journal.ndjson');
    const [first, second] = pinnedPart(extendedMatrix).cases;
    const journal = openJournal(path, 'run-1', false);
    journal.append(first!, null);
    writeFileSync(path, `${readFileSync(path, 'utf8')}{"kind":"case","rec`);
    openJournal(path, 'run-1', true).append(second!, []);
    expect([...readJournal(path, 'run-1').keys()]).toEqual([first!.id, second!.id]);
  });

  it('refuses to resume without a journal, or from the journal of another run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-journal-'));
    const out = join(dir, 'result.json');
    const none = await runMain(['--case', 'v1/warm/conforming-success', '--out', out, '--resume']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/--resume: no journal at .*result\.json\.journal\.ndjson: nothing to resume/);
    writeFileSync(`${out}.journal.ndjson`, `${JSON.stringify({ kind: 'journal', version: 1, run: 'another run' })}\n`);
    const other = await runMain(['--case', 'v1/warm/conforming-success', '--out', out, '--resume']);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/the journal is of another run/);
  });
});

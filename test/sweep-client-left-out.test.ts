// A client sweep of a matrix with the ecosystem lines (--matrix ecosystem, all): the ai-sdk and langchain
// cases are other packages, pinned, with no SDK releases to sweep, so no client release runs them. They
// must not vanish without a word: the sweep JSON lists them under leftOut and every report says so, and a
// selection with no case of a swept line is a usage error (exit 2), not an empty pass.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MATRICES } from '../probe/commands/audit.ts';
import { SweepResultSchema } from '../probe/sweep/model.ts';
import { leftOutOfClientSweep } from '../probe/sweep/side.ts';
import { runMain } from './helpers/main.ts';

describe('a client sweep leaves the ecosystem lines out, and says so', () => {
  it('names exactly the cases of the non-SDK client lines', async () => {
    const { scenarios } = await MATRICES.ecosystem();
    const ecosystem = scenarios.filter((s) => s.client === 'ai-sdk' || s.client === 'langchain').map((s) => s.id);
    expect(ecosystem.length).toBeGreaterThan(0);
    expect(leftOutOfClientSweep(scenarios)).toEqual([{ reason: 'not-an-sdk-client', caseIds: ecosystem }]);
    // The SDK matrices have none to leave out.
    expect(leftOutOfClientSweep((await MATRICES.audit()).scenarios)).toEqual([]);
    expect(leftOutOfClientSweep((await MATRICES.extended()).scenarios)).toEqual([]);
  });

  it('runs the SDK cells of --matrix ecosystem and reports the others as not run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-sweep-eco-'));
    const out = join(dir, 'sweep.json');
    const run = await runMain(['sweep', '--matrix', 'ecosystem', '--v2', '2.4.0', '--case', '*/warm/*', '--out', out, '--baseline', join(dir, 'none.json')]);
    expect(run.code, run.stderr).toBe(0);
    const result = SweepResultSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
    const ran = result.releases[0]!.status === 'ran' ? result.releases[0]!.cases.map((c) => c.id) : [];
    expect(ran.length).toBeGreaterThan(0);
    expect(ran.every((id) => id.startsWith('v2/'))).toBe(true);
    const leftOut = result.leftOut?.find((g) => g.reason === 'not-an-sdk-client')?.caseIds ?? [];
    expect(leftOut.some((id) => id.startsWith('ai-sdk/'))).toBe(true);
    // --case narrows what is left out too (the langchain cells are not */warm/*): only the selected ones.
    expect(leftOut.every((id) => !/^v[12]\//.test(id))).toBe(true);
    // The line names only the lines left out: the langchain cells were not selected, so not langchain.
    expect(run.stdout).toMatch(new RegExp(`${leftOut.length} cases of the matrix not run: their client is an ecosystem line \\(ai-sdk\\) this sweep has no releases of`));
  }, 120_000);

  it('refuses a selection that leaves no case of a swept line (exit 2)', async () => {
    const run = await runMain(['sweep', '--matrix', 'ecosystem', '--v2', '2.4.0', '--case', 'ai-sdk/*']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--v2: no selected case of matrix ecosystem runs on the v2 client/);
  });
});

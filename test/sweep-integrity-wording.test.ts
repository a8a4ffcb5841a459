// The baseline line for releases whose integrity is unknown where they ran (an installed package has no
// lockfile, issue 21): the possessive of one release is "release's", of several "releases'" (it printed
// "1 release' integrity" for `sweep --v1 latest` from the installed tarball). A real sweep of the pinned
// v1 client, offline, rendered with a baseline comparison that marks its one release unknown.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderSweepReport } from '../probe/render/sweep.ts';
import { SweepResultSchema } from '../probe/sweep/model.ts';
import { runMain } from './helpers/main.ts';

describe('integrity unknown on one side', () => {
  it('says "1 release\'s" for one release and "2 releases\'" for two', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-integrity-wording-'));
    const run = await runMain(['sweep', '--v1', '1.32.2', '--case', 'v1/warm/conforming-success', '--json', '--out', join(dir, 'sweep.json'), '--baseline', join(dir, 'none.json')]);
    expect(run.code, run.stderr).toBe(0);
    const result = SweepResultSchema.parse(JSON.parse(run.stdout));
    const report = (count: number) =>
      renderSweepReport({
        result,
        baseline: Array.from({ length: count }, (_, i) => ({ kind: 'matched' as const, release: `v1@1.32.${i}`, integrityUnknown: true as const })),
        baselinePath: 'results/sweep-baseline.json',
        updatedBaseline: false,
        pinned: [],
        writtenPath: undefined,
      });
    expect(report(1)).toContain("  1 release's integrity unknown on one side (no lockfile where it ran)");
    expect(report(2)).toContain("  2 releases' integrity unknown on one side (no lockfile where it ran)");
  });
});

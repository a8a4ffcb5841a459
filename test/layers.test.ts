// The layer rule (probe/README.md, .dependency-cruiser.cjs) holds for the project, and the check really
// catches what it forbids: a small tree in test/fixtures/layers breaks every rule once.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/cli.ts';

interface Violation {
  readonly rule: { readonly name: string };
  readonly from: string;
  readonly to: string;
}

function cruise(cwd: string): Promise<{ violations: Violation[] }> {
  const bin = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [bin, 'probe', 'scenarios', '--config', join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'json'],
      { cwd, maxBuffer: 64 * 1024 * 1024 },
      (_error, stdout) => {
        try {
          const report = JSON.parse(stdout) as { summary: { violations: Violation[] } };
          resolve({ violations: report.summary.violations });
        } catch (parseError) {
          reject(parseError as Error);
        }
      },
    );
  });
}

describe('layers', () => {
  it('the project imports only along the layer direction, with no cycles', async () => {
    const { violations } = await cruise(ROOT);
    expect(violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([]);
  });

  it('an upward import, I/O in core, an unknown folder, scenarios beyond core and a cycle each fail the check', async () => {
    const { violations } = await cruise(join(ROOT, 'test', 'fixtures', 'layers'));
    const found = violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();
    expect(found).toEqual([
      'core-is-pure: probe/core/pure.ts → fs',
      'layer-core: probe/core/pure.ts → probe/io/files.ts',
      'layer-io: probe/io/files.ts → scenarios/cases.ts',
      'layer-scenarios: scenarios/cases.ts → probe/plugins/plugin.ts',
      'no-cycles: probe/core/pure.ts → probe/io/files.ts',
      'unknown-layer: probe/plugins/plugin.ts → probe/core/pure.ts',
    ]);
  });
});

// The committed baselines are in the format the code writes: recording them again from an unchanged
// checkout (--update) changes nothing but the environment block (which is where it ran).
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Matrix } from '../probe/core/domain.ts';
import { parseResultText, serializeResult } from '../probe/io/json-files.ts';
import { auditMatrix } from '../scenarios/audit.ts';
import { extendedMatrix } from '../scenarios/extended/index.ts';
import { ROOT } from './helpers/cli.ts';
import { runMain } from './helpers/main.ts';
import { pinnedPart } from './helpers/pinned-run.ts';

describe('recorded baselines', () => {
  it.each([
    ['results/recorded.json', auditMatrix],
    ['results/recorded-extended.json', extendedMatrix],
  ] as [string, Matrix][])('%s is byte for byte what --update writes from this checkout', (file, matrix) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const recorded = parseResultText(text, file);
    expect(serializeResult(pinnedPart(matrix, recorded.environment))).toBe(text);
  });

  it('an older-format recorded file is refused with one line, and --update records it anew', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-format-'));
    const recorded = join(dir, 'recorded.json');
    const old = { ...JSON.parse(readFileSync(join(ROOT, 'results', 'recorded.json'), 'utf8')), schemaVersion: 1 };
    writeFileSync(recorded, JSON.stringify(old));
    const refused = await runMain(['--recorded', recorded, '--out', join(dir, 'latest.json')]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/recorded\.json: a result file of format 1; this probe reads format 2 \(record it again with --update\)\n$/);
    const updated = await runMain(['--recorded', recorded, '--out', join(dir, 'latest.json'), '--update']);
    expect(updated.code).toBe(0);
    expect(parseResultText(readFileSync(recorded, 'utf8'), recorded).schemaVersion).toBe(2);
    copyFileSync(recorded, join(dir, 'again.json'));
  });
});

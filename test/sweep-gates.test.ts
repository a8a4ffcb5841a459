// Issue 21 item 5: gates that fail only on behaviour. The classification of a change (behaviour or
// identity) as a table, one row per field that flips it; the integrity gate (unknown provenance is not a
// change); and the zod 3 → 4 rename of @modelcontextprotocol/sdk 1.23.0 as identity only, from the
// recorded baseline. Pure functions; no SDK, no network.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Observation } from '../probe/core/domain.ts';
import { renderSweepReport } from '../probe/render/sweep.ts';
import { renderSweepMarkdown } from '../probe/render/sweep-markdown.ts';
import { serializeSweep, SweepNdjsonLineSchema, sweepToNdjson } from '../probe/sweep/files.ts';
import { compareNewestWithPinned, compareWithBaseline, SweepBaselineSchema, sweepExitCode, toBaseline } from '../probe/sweep/gates.ts';
import {
  BEHAVIOUR_FIELD_KINDS,
  changeKindOf,
  changePoints,
  changePointsOf,
  summarize,
  SweepResultSchema,
  type Behaviour,
  type ChangeKind,
  type ReleaseRun,
  type SweepResult,
} from '../probe/sweep/model.ts';
import { ROOT } from './helpers/cli.ts';
import { caseRecord, resultFile } from './fixtures.ts';

const rejected = { outcome: 'rejected', code: null, name: 'ZodError' };
const returned = { outcome: 'returned', isError: false, content: [{ type: 'text', text: 'a' }], structuredContent: { v: 1 } };

// [field that flips, before, after, kind (undefined: no change)]
const TABLE: [string, Behaviour | undefined, Behaviour | undefined, ChangeKind | undefined][] = [
  ['nothing', returned, { ...returned }, undefined],
  ['outcome', returned, { outcome: 'rejected', code: -32602, name: 'McpError' }, 'behaviour'],
  ['isError', returned, { ...returned, isError: true }, 'behaviour'],
  ['structuredContent', returned, { ...returned, structuredContent: { v: 2 } }, 'behaviour'],
  ['content', returned, { ...returned, content: [] }, 'behaviour'],
  ['code', { outcome: 'rejected', code: -32602, name: 'McpError' }, { outcome: 'rejected', code: -32603, name: 'McpError' }, 'behaviour'],
  ['stage', { outcome: 'timeout', stage: 'list' }, { outcome: 'timeout', stage: 'call' }, 'behaviour'],
  ['sent', { sent: 'as-scenario', ...returned }, { sent: 'dropped', ...returned }, 'behaviour'],
  ['name', rejected, { ...rejected, name: '$ZodError' }, 'identity'],
  // A rename together with a behaviour change is a behaviour change.
  ['name and code', rejected, { outcome: 'rejected', code: -32602, name: 'McpError' }, 'behaviour'],
  // A field the table does not know (a behaviour read from a newer file) counts.
  ['an unknown field', { ...rejected, by: 'client' }, { ...rejected, by: 'server' }, 'behaviour'],
  // A case that ran on one side only.
  ['a case that appeared', undefined, returned, 'behaviour'],
  ['a case that went', returned, undefined, 'behaviour'],
];

describe('changeKindOf: which change is behaviour and which is identity', () => {
  it.each(TABLE)('%s', (_field, before, after, kind) => {
    expect(changeKindOf(before, after)).toBe(kind);
  });

  it('the table flips every field behaviourOf records, each to its kind in BEHAVIOUR_FIELD_KINDS', () => {
    for (const [field, kind] of Object.entries(BEHAVIOUR_FIELD_KINDS)) expect(TABLE.find((row) => row[0] === field)?.[3]).toBe(kind);
  });
});

const X = (name: string, code: number | null = null) => ({ outcome: 'rejected', error: { name, code, message: `wording of ${name}` }, by: 'client', serverSent: 'as-scenario' }) as Observation;

function ran(label: string, observations: Record<string, Observation>, integrity: string | null = `sha512-${label}`): ReleaseRun {
  return {
    status: 'ran',
    release: { line: 'v1', packageName: '@modelcontextprotocol/sdk', version: label, label, source: 'registry', integrity },
    cases: Object.entries(observations).map(([id, observed]) => caseRecord(id, {}, { observed })),
  };
}

function sweep(releases: ReleaseRun[]): SweepResult {
  return {
    schemaVersion: 2,
    kind: 'sweep',
    matrix: { name: 'audit', title: 't', source: 's' },
    environment: resultFile([]).environment,
    request: { v1: '1.32.2', v2: null, prerelease: false },
    plan: releases.map((r) => `${r.release.line}@${r.release.label}`),
    releases,
    changePoints: changePoints(releases),
    summary: summarize(releases),
  };
}

describe('the baseline gate on integrity: unknown provenance is not a change (issue 21)', () => {
  const cases = { a: X('McpError', -32602) };
  // [name, integrity in the baseline, integrity now, entry kind, integrityUnknown, exit code]
  it.each([
    ['the same hash', 'sha512-A', 'sha512-A', 'matched', undefined, 0],
    // An installed package has no lockfile of its own: the pinned release's integrity is null there.
    ['known in the baseline, unknown here (no lockfile)', 'sha512-A', null, 'matched', true, 0],
    ['unknown in the baseline, known here', null, 'sha512-A', 'matched', true, 0],
    ['unknown on both sides', null, null, 'matched', undefined, 0],
    // Another build under the same version: re-published, or built locally.
    ['two different known hashes', 'sha512-A', 'sha512-B', 'changed', undefined, 1],
  ] as const)('%s', (_name, recorded, now, kind, unknown, code) => {
    const baseline = toBaseline(sweep([ran('1.32.2', cases, recorded)]));
    const entries = compareWithBaseline(baseline, sweep([ran('1.32.2', cases, now)]));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ kind, release: 'v1@1.32.2' });
    expect(entries[0] && 'integrityUnknown' in entries[0] ? entries[0].integrityUnknown : undefined).toBe(unknown);
    if (kind === 'changed') expect(entries[0]).toMatchObject({ integrity: { before: recorded, after: now } });
    expect(sweepExitCode({ baseline: entries, pinned: [], updatedBaseline: false })).toBe(code);
  });
});

describe('the gates fail on behaviour; identity changes only with --gate-identity', () => {
  const before = sweep([ran('1.22.0', { a: X('ZodError'), b: X('McpError', -32602) })]);
  const baseline = toBaseline(before);

  it.each([
    ['a renamed error class', { a: X('$ZodError'), b: X('McpError', -32602) }, ['identity'], 0, 1],
    ['a changed code', { a: X('ZodError'), b: X('McpError', -32603) }, ['behaviour'], 1, 1],
    // Behaviour changes lead.
    ['both', { a: X('$ZodError'), b: X('McpError', -32603) }, ['behaviour', 'identity'], 1, 1],
  ] as const)('baseline: %s', (_name, now, kinds, code, identityCode) => {
    const entries = compareWithBaseline(baseline, sweep([ran('1.22.0', now)]));
    expect(entries[0]?.kind === 'changed' && entries[0].cases.map((c) => c.kind)).toEqual(kinds);
    expect(sweepExitCode({ baseline: entries, pinned: [], updatedBaseline: false })).toBe(code);
    expect(sweepExitCode({ baseline: entries, pinned: [], updatedBaseline: false, gateIdentity: true })).toBe(identityCode);
  });

  it('newest against pinned: a renamed error class alone passes, and fails with gateIdentity', () => {
    const pinned = resultFile([caseRecord('a', X('ZodError'))]);
    const entries = compareNewestWithPinned(pinned, sweep([ran('1.23.0', { a: X('$ZodError') })]), ['v1']);
    expect(entries).toMatchObject([{ kind: 'differs', cases: [{ caseId: 'a', kind: 'identity' }] }]);
    expect(sweepExitCode({ baseline: [], pinned: entries, updatedBaseline: false })).toBe(0);
    expect(sweepExitCode({ baseline: [], pinned: entries, updatedBaseline: false, gateIdentity: true })).toBe(1);
  });
});

describe('the zod 3 → 4 move of @modelcontextprotocol/sdk 1.23.0, from the recorded baseline', () => {
  // results/sweep-baseline-all.json, recorded by `sweep --matrix all --v1 1.10.0..latest --v2 2.0.0..latest --update`.
  const recorded = SweepBaselineSchema.parse(JSON.parse(readFileSync(join(ROOT, 'results', 'sweep-baseline-all.json'), 'utf8')));
  const release = (key: string) => {
    const entry = recorded.releases.find((r) => r.release === key)!;
    return { label: key, behaviours: new Map(Object.entries(entry.behaviours)) };
  };

  it('v1@1.22.0 → v1@1.23.0: 14 change points, each the error class name only (ZodError → $ZodError), all identity', () => {
    const points = changePointsOf([release('v1@1.22.0'), release('v1@1.23.0')]);
    expect(points).toHaveLength(14);
    for (const point of points) {
      expect(point).toMatchObject({ kind: 'identity', fields: ['name'], before: { outcome: 'rejected', code: null, name: 'ZodError' }, after: { outcome: 'rejected', code: null, name: '$ZodError' } });
    }
  });

  it('the whole recorded v1 history: behaviour change points lead, the 14 renames come last, counted apart', () => {
    const v1 = recorded.releases.filter((r) => r.release.startsWith('v1@') && r.status === 'ran').map((r) => release(r.release));
    const points = changePointsOf(v1);
    const identity = points.filter((p) => p.kind === 'identity');
    expect(identity.map((p) => `${p.through} → ${p.from}`)).toEqual(Array(14).fill('v1@1.22.0 → v1@1.23.0'));
    expect(points.slice(-14)).toEqual(identity);
    expect(points.filter((p) => p.kind === 'behaviour').length).toBe(points.length - 14);
    expect(points.filter((p) => p.kind === 'behaviour').every((p) => p.fields.some((f) => f !== 'name'))).toBe(true);
  });
});

describe('every report leads with behaviour change points and counts identity ones apart', () => {
  // Case a is only renamed (as zod 4 renamed ZodError), case b changes its code; a comes first in case order.
  const result = sweep([
    ran('1.22.0', { a: X('ZodError'), b: X('McpError', -32602), c: X('ZodError') }),
    ran('1.23.0', { a: X('$ZodError'), b: X('McpError', -32603), c: X('$ZodError') }),
  ]);
  const input = { result, baseline: undefined, baselinePath: 'none.json', updatedBaseline: false, pinned: [], writtenPath: undefined };

  it('the result JSON: behaviour first, each point classified (a new field)', () => {
    const json = JSON.parse(serializeSweep(result)) as SweepResult;
    expect(json.changePoints.map((p) => [p.caseId, p.kind, p.fields])).toEqual([
      ['b', 'behaviour', ['code']],
      ['a', 'identity', ['name']],
      ['c', 'identity', ['name']],
    ]);
    expect(SweepResultSchema.parse(json)).toEqual(result);
  });

  it('a sweep file or NDJSON stream written before change points were classified reads with each point classified', () => {
    const json = JSON.parse(serializeSweep(result)) as { changePoints: Record<string, unknown>[] };
    for (const point of json.changePoints) {
      delete point.kind;
      delete point.fields;
    }
    expect(SweepResultSchema.parse(json).changePoints.map((p) => [p.caseId, p.kind, p.fields])).toEqual([
      ['b', 'behaviour', ['code']],
      ['a', 'identity', ['name']],
      ['c', 'identity', ['name']],
    ]);
    const line = JSON.parse(sweepToNdjson(result).split('\n').find((l) => l.includes('"change-point"'))!) as Record<string, unknown>;
    delete line.kind;
    delete line.fields;
    expect(SweepNdjsonLineSchema.parse(line)).toMatchObject({ type: 'change-point', caseId: 'b', kind: 'behaviour', fields: ['code'] });
    // Only a point with neither field is an old one: half of them is still refused.
    expect(SweepResultSchema.safeParse({ ...json, changePoints: [{ ...json.changePoints[0], kind: 'identity' }] }).success).toBe(false);
  });

  it('the NDJSON lines: the behaviour change point first, and the counts in the summary line', () => {
    const lines = sweepToNdjson(result).trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const line of lines) SweepNdjsonLineSchema.parse(line);
    expect(lines.filter((l) => l.type === 'change-point').map((l) => [l.caseId, l.kind])).toEqual([
      ['b', 'behaviour'],
      ['a', 'identity'],
      ['c', 'identity'],
    ]);
    expect(lines.at(-1)).toMatchObject({ type: 'summary', behaviourChangePoints: 1, identityChangePoints: 2 });
  });

  it('the terminal report: behaviour change points listed, the renames grouped after them, counted apart', () => {
    const text = renderSweepReport(input);
    const section = text.slice(text.indexOf('Change points'));
    expect(section.split('\n').slice(0, 4)).toEqual([
      'Change points: 1 behaviour change point, 2 identity change points (the error class name only)',
      '  b: rejected -32602 ≤ 1.22.0 → rejected -32603 from 1.23.0',
      "  identity only (the error class name only: what names the failure, not what the application gets); --gate-identity gates them:",
      '    name: ZodError → $ZodError (≤ 1.22.0 → from 1.23.0), 2 cases: a, c',
    ]);
    expect(text.trimEnd().split('\n').at(-1)).toBe('2 releases swept, 0 did not run, 1 behaviour change point, 2 identity change points (the error class name only)');
  });

  it('the terminal report: a baseline or pinned difference that is identity only is said to be so, and not gated', () => {
    const renamed = compareWithBaseline(toBaseline(sweep([ran('1.23.0', { a: X('ZodError') })])), sweep([ran('1.23.0', { a: X('$ZodError') })]));
    const pinned = compareNewestWithPinned(resultFile([caseRecord('a', {}, { observed: X('ZodError') })]), sweep([ran('1.23.0', { a: X('$ZodError') })]), ['v1']);
    const text = renderSweepReport({ ...input, baseline: renamed, pinned });
    expect(text).toContain('  changed v1@1.23.0: identity only, not gated (--gate-identity gates it)\n      a: rejected ZodError → rejected $ZodError (identity)\n');
    expect(text).toContain('behaves as the pinned @modelcontextprotocol/sdk@1.32.2 in every case; identity differences only (not gated, --gate-identity gates them):');
    const gated = renderSweepReport({ ...input, baseline: renamed, pinned, gateIdentity: true });
    expect(gated).toContain('  changed v1@1.23.0\n      a: rejected ZodError → rejected $ZodError (identity)\n');
    expect(gated).toContain('behaves differently from the pinned @modelcontextprotocol/sdk@1.32.2:');
  });

  it('the Markdown evidence: the heading counts both, the table and its evidence hold behaviour only, the renames follow', () => {
    const text = renderSweepMarkdown(input);
    // Read as it renders: markdownText's backslash escapes removed.
    const section = text.slice(text.indexOf('## Change points'), text.indexOf('## Report')).replaceAll('\\', '');
    expect(section).toMatch(/^## Change points: 1 behaviour change point, 2 identity change points \(the error class name only\)\n/);
    expect([...section.matchAll(/^\| `([a-z])` \|/gm)].map((m) => m[1])).toEqual(['b']);
    expect([...section.matchAll(/<summary>/g)]).toHaveLength(1);
    expect(section.indexOf('<summary>b:')).toBeLessThan(section.indexOf('### Identity only: 2 change points'));
    expect(section).toContain('- name: ZodError → $ZodError');
  });
});

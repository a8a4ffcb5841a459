// The sweep's pure parts: change points, column compression, baseline and pinned gates, exit code,
// sharding and merging. Hand-made records; no SDK, no network.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SdkLine, Observation } from '../probe/core/domain.ts';
import { InputError } from '../probe/core/errors.ts';
import { compressColumns } from '../probe/render/sweep.ts';
import { compareNewestWithPinned, compareWithBaseline, mergeIntoBaseline, sweepExitCode, toBaseline } from '../probe/sweep/gates.ts';
import { changePoints, summarize, type ReleaseRun, type SweepResult } from '../probe/sweep/model.ts';
import { releaseScheduler } from '../probe/sweep/pool.ts';
import { mergeShards, parseShard, selectShard } from '../probe/sweep/shard.ts';
import { caseRecord, resultFile } from './fixtures.ts';

const R = (o: Partial<Observation> = {}) => ({ outcome: 'returned', content: [], serverSent: 'as-scenario', ...o }) as Observation;
const X = (code: number) => ({ outcome: 'rejected', error: { name: 'McpError', code, message: `wording of ${code}` }, serverSent: 'as-scenario' }) as Observation;

function ran(label: string, observations: Record<string, Observation>, line: SdkLine = 'v1'): ReleaseRun {
  return {
    status: 'ran',
    release: { line, packageName: 'p', version: label, label, source: 'registry', integrity: `sha512-${label}` },
    cases: Object.entries(observations).map(([id, observed]) => caseRecord(id, observed)),
  };
}
const failed = (label: string): ReleaseRun => ({
  status: 'failed',
  release: { line: 'v1', packageName: 'p', version: label, label, source: 'folder', integrity: null },
  stage: 'load',
  error: { name: 'Error', code: null, message: 'no' },
});

const history = [
  ran('1.0.0', { a: R(), b: R() }),
  ran('1.1.0', { a: R(), b: R() }),
  failed('1.2.0'),
  ran('1.3.0', { a: X(-32602), b: R() }),
  ran('1.4.0', { a: X(-32602), b: R({ isError: true }) }),
  ran('1.5.0', { a: X(-32602), b: R({ isError: true }) }),
];

function sweep(releases: ReleaseRun[], fields: Partial<SweepResult> = {}): SweepResult {
  return {
    schemaVersion: 2,
    kind: 'sweep',
    matrix: { name: 'audit', title: 't', source: 's' },
    environment: resultFile([]).environment,
    request: { v1: '1.0.0..latest', v2: null, prerelease: false },
    plan: releases.map((r) => `${r.release.line}@${r.release.label}`),
    releases,
    changePoints: changePoints(releases),
    summary: summarize(releases),
    ...fields,
  };
}

describe('changePoints', () => {
  it('names the last release before and the first release after each change, skipping releases that did not run', () => {
    expect(changePoints(history).map((p) => `${p.caseId}: ${p.through} → ${p.from}`)).toEqual(['a: 1.1.0 → 1.3.0', 'b: 1.3.0 → 1.4.0']);
  });

  it('ignores error wording: the same code with other text is the same behaviour', () => {
    const reworded = { outcome: 'rejected', error: { name: 'McpError', code: -32602, message: 'other words' }, serverSent: 'as-scenario' } as Observation;
    expect(changePoints([ran('1', { a: X(-32602) }), ran('2', { a: reworded })])).toEqual([]);
  });

  it.each([
    ['a different code', X(-32600)],
    ['a returned result', R()],
    ['different structuredContent', R({ structuredContent: { v: 1 } })],
  ])('sees %s as a change', (_name, observation) => {
    expect(changePoints([ran('1', { a: X(-32602) }), ran('2', { a: observation })])).toHaveLength(1);
  });
});

describe('compressColumns', () => {
  it('joins runs of identical releases and keeps failed ones apart', () => {
    expect(compressColumns(history).map((c) => c.label)).toEqual(['1.0.0–1.1.0', '1.2.0', '1.3.0', '1.4.0–1.5.0']);
  });
});

describe('compareWithBaseline', () => {
  const baseline = toBaseline(sweep(history));

  it('matches itself', () => {
    expect(compareWithBaseline(baseline, sweep(history)).every((e) => e.kind === 'matched')).toBe(true);
  });

  it('names a release whose behaviour changed, and the cases', () => {
    const now = [...history.slice(0, 5), ran('1.5.0', { a: X(-32600), b: R({ isError: true }) })];
    const entries = compareWithBaseline(baseline, sweep(now));
    expect(entries.filter((e) => e.kind !== 'matched')).toEqual([
      { kind: 'changed', release: 'v1@1.5.0', cases: [{ caseId: 'a', before: { outcome: 'rejected', code: -32602, name: 'McpError' }, after: { outcome: 'rejected', code: -32600, name: 'McpError' }, kind: 'behaviour' }] },
    ]);
  });

  it('reports a release that stopped loading; a folder build has no integrity, so it is unknown, not changed', () => {
    const now = [...history.slice(0, 5), failed('1.5.0')];
    const [entry] = compareWithBaseline(baseline, sweep(now)).filter((e) => e.kind === 'changed');
    expect(entry).toMatchObject({ release: 'v1@1.5.0', status: { before: 'ran', after: 'failed' }, integrityUnknown: true });
    expect(entry).not.toHaveProperty('integrity');
  });

  it('calls unswept baseline releases unchecked and unrecorded ones new; neither fails', () => {
    const entries = compareWithBaseline(baseline, sweep([...history.slice(0, 2), ran('1.6.0', { a: R() })]));
    expect(entries.map((e) => `${e.kind} ${e.release}`)).toEqual([
      'matched v1@1.0.0',
      'matched v1@1.1.0',
      'new v1@1.6.0',
      'unchecked v1@1.2.0',
      'unchecked v1@1.3.0',
      'unchecked v1@1.4.0',
      'unchecked v1@1.5.0',
    ]);
    expect(sweepExitCode({ baseline: entries, pinned: [], updatedBaseline: false })).toBe(0);
  });

  it('keeps the releases a partial --update did not sweep, in release order', () => {
    const merged = mergeIntoBaseline(toBaseline(sweep(history.slice(3))), sweep(history.slice(0, 2)));
    expect(merged.releases.map((r) => r.release)).toEqual(['v1@1.0.0', 'v1@1.1.0', 'v1@1.3.0', 'v1@1.4.0', 'v1@1.5.0']);
  });
});

describe('compareNewestWithPinned', () => {
  const pinned = resultFile([caseRecord('a', X(-32602)), caseRecord('b', R({ isError: true }))]);

  it.each([
    ['same', history, 'same'],
    ['differs', [...history, ran('1.6.0', { a: R(), b: R({ isError: true }) })], 'differs'],
    ['did not run', [...history, failed('1.6.0')], 'did-not-run'],
  ])('%s', (_name, releases, kind) => {
    const [entry] = compareNewestWithPinned(pinned, sweep(releases), ['v1']);
    expect(entry?.kind).toBe(kind);
    expect(sweepExitCode({ baseline: [], pinned: [entry!], updatedBaseline: false })).toBe(kind === 'same' ? 0 : 1);
  });
});

describe('sweepExitCode', () => {
  const changed = [{ kind: 'changed', release: 'v1@1', cases: [{ caseId: 'a', before: undefined, after: { outcome: 'returned' }, kind: 'behaviour' }] }] as const;
  it.each([
    [[], false, 0],
    [changed, false, 1],
    [changed, true, 0],
  ] as const)('baseline %j, updated %s → %i', (baseline, updatedBaseline, code) => {
    expect(sweepExitCode({ baseline, pinned: [], updatedBaseline })).toBe(code);
  });
});

describe('shards', () => {
  it.each([
    ['1/1', { index: 1, count: 1 }],
    ['2/3', { index: 2, count: 3 }],
  ])('parses %s', (text, shard) => expect(parseShard(text)).toEqual(shard));

  it.each(['0/2', '3/2', '1/0', 'a/b', '1'])('rejects %s', (text) => expect(() => parseShard(text)).toThrow(InputError));

  it('splits round-robin and every release lands in exactly one shard', () => {
    const items = [1, 2, 3, 4, 5];
    const parts = [1, 2, 3].map((index) => selectShard(items, { index, count: 3 }));
    expect(parts).toEqual([[1, 4], [2, 5], [3]]);
  });

  it('merges shards back into the whole sweep, whatever order they come in', () => {
    const whole = sweep(history);
    const shards = [1, 2].map((index) => {
      const releases = selectShard(history, { index, count: 2 });
      return { path: `s${index}.json`, result: sweep(releases, { plan: whole.plan, shard: { index, count: 2 } }) };
    });
    expect(mergeShards([shards[1]!, shards[0]!])).toEqual(whole);
  });

  it.each([
    ['a missing shard', (s: { result: SweepResult }[]) => [s[0]!], /shard 2\/2 missing/],
    ['a duplicate', (s: { result: SweepResult }[]) => [s[0]!, s[0]!], /shard 1\/2 is also in/],
    ['a whole sweep', (s: { result: SweepResult }[]) => [{ ...s[0]!, result: { ...s[0]!.result, shard: undefined } }], /not a shard/],
    ['another plan', (s: { result: SweepResult }[]) => [s[0]!, { ...s[1]!, result: { ...s[1]!.result, plan: ['v1@9'] } }], /planned a different sweep/],
  ])('refuses %s', (_name, pick, message) => {
    const shards = [1, 2].map((index) => ({
      path: `s${index}.json`,
      result: sweep(selectShard(history, { index, count: 2 }), { plan: sweep(history).plan, shard: { index, count: 2 } }),
    }));
    expect(() => mergeShards(pick(shards) as never)).toThrow(message);
  });
});

describe('releaseScheduler (which release a sweep worker takes next)', () => {
  const drain = (count: number, workers: number, turns: readonly number[]) => {
    const next = releaseScheduler(count, workers);
    const handed: [number, number][] = [];
    const finished = new Set<number>();
    for (let i = 0; finished.size < workers; i++) {
      let worker = turns.length > 0 ? turns[i % turns.length]! % workers : i % workers;
      // A worker told "nothing left" asks no more; the next one asks instead.
      while (finished.has(worker)) worker = (worker + 1) % workers;
      const index = next(worker);
      if (index === undefined) finished.add(worker);
      else handed.push([worker, index]);
      if (handed.length > count) throw new Error(`more than ${count} releases handed out`);
    }
    return handed;
  };

  it('hands every release out exactly once, whatever order the workers ask in', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 80 }), fc.integer({ min: 1, max: 6 }), fc.array(fc.nat({ max: 5 }), { maxLength: 40 }), (count, workers, turns) => {
        const indexes = drain(count, workers, turns).map(([, index]) => index);
        expect([...indexes].sort((a, b) => a - b)).toEqual(Array.from({ length: count }, (_, i) => i));
      }),
    );
  });

  it('gives each worker a stretch of neighbouring releases (they share dependencies), and splits what is left', () => {
    // Two workers asking in turn: one from the start, one from the middle; the first, on meeting the
    // second's releases, takes the middle of what is left (the second's tail).
    expect(drain(10, 2, [0, 1]).map(([worker, index]) => `${worker}:${index}`)).toEqual(['0:0', '1:5', '0:1', '1:6', '0:2', '1:7', '0:3', '1:8', '0:4', '1:9']);
    // A worker that starts late finds its stretch begun by another, and starts in the middle of what is left.
    expect(drain(10, 2, [0, 0, 0, 0, 0, 0, 1]).map(([worker, index]) => `${worker}:${index}`).slice(0, 8)).toEqual(['0:0', '0:1', '0:2', '0:3', '0:4', '0:5', '1:8', '0:6']);
  });
});

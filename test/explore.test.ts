// explore's search and shrinking, first over a test double of the oracles' input (the traces a
// deliberately broken validator would leave), then over the real pinned clients, then through the CLI.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../probe/core/domain.ts';
import { explore } from '../probe/explore/explore.ts';
import { compareWithKnown, exploreExitCode, KnownFileSchema, scenarioOf, serializeScenario } from '../probe/explore/findings.ts';
import { DEFAULT_MAX_STEPS } from '../probe/explore/generate.ts';
import { applyChange, cursorOf, describeSequence, initialState, listPage, pageCount, resultFor, toolIndex, type Sequence } from '../probe/explore/model.ts';
import { runSequence } from '../probe/explore/run.ts';
import type { LineTrace, TraceEvent } from '../probe/explore/trace.ts';
import { ROOT } from './helpers/cli.ts';
import { runMain } from './helpers/main.ts';

const ajv = new Ajv({ strict: false });

/**
 * The trace a client would leave that validates every call against the schemas of the FIRST listing it
 * made on a connection and never learns later ones (`broken`), or against the most recent (the
 * contract). The server's side comes from the model, as the real runner's does.
 */
function validatorTraces(broken: boolean) {
  return async (sequence: Sequence): Promise<LineTrace[]> => {
    const { server } = sequence;
    const events: TraceEvent[] = [{ event: 'connected' }];
    let state = initialState(server);
    let cache: Map<string, Record<string, JsonValue> | undefined> | undefined;
    for (const [step, s] of sequence.steps.entries()) {
      if (s.do === 'list') {
        if (s.fail) {
          events.push({ event: 'list-refused', step }, { event: 'action-failed', step, action: 'list', refused: true, error: { name: 'McpError', code: -32603, message: 'x' } });
          continue;
        }
        const pages = s.how === 'plain' ? [0] : s.how === 'page' ? [(s.page ?? 0) % pageCount(server)] : [...Array(pageCount(server)).keys()];
        const learns = !broken || cache === undefined;
        for (const page of pages) {
          const { tools } = listPage(server, state, cursorOf(page))!;
          events.push({ event: 'listed', step, via: s.how, tools });
          if (learns) {
            cache ??= new Map();
            for (const t of tools) cache.set(t.name, t.outputSchema);
          }
        }
      } else if (s.do === 'change') {
        state = applyChange(server, state, s.tool);
        events.push({ event: 'changed', step, tool: server.tools[toolIndex(server, s.tool)]!.name, notified: s.notify });
      } else if (s.do === 'reconnect') {
        cache = undefined;
        events.push({ event: 'connected' });
      } else {
        const sent = resultFor(server, state, { ...s, isError: false, definition: undefined } as typeof s);
        const name = server.tools[toolIndex(server, s.tool)]!.name;
        const schema = cache?.get(name);
        const ok = schema === undefined || ajv.validate(schema, sent.structuredContent ?? null);
        events.push({
          event: 'call',
          step,
          tool: name,
          sent,
          settled: ok ? { outcome: 'returned', isError: false } : { outcome: 'rejected', by: 'client-output-schema', error: { name: 'McpError', code: -32602, message: 'does not match' } },
        });
      }
    }
    return [{ client: 'v1', events }];
  };
}

describe('explore over a test double of the traces', () => {
  it('finds the broken validator and shrinks to the known minimal sequence, the same for the same seed', async () => {
    const first = await explore(validatorTraces(true), { seed: 7, runs: 1000 });
    expect(first.findings.map((f) => f.class)).toEqual(['schema-consistency:v1:returned-nonconforming:plain']);
    // Observed with seed 7: list page 2 (beta), then the plain listing (alpha, page 1), then call alpha
    // without structuredContent. The broken validator never learned alpha, so it hands back a result its
    // listed schema forbids. Nothing in it can go: without either listing there is no bug to show.
    expect(describeSequence(first.findings[0]!.sequence)).toBe('[alpha{s?,…} beta{b?,…} /1] list:page(1) ; list:plain ; call(0):current,no-sc');
    const again = await explore(validatorTraces(true), { seed: 7, runs: 1000 });
    expect(again).toEqual(first);
  });

  it('finds nothing in a validator that keeps to the contract', async () => {
    const result = await explore(validatorTraces(false), { seed: 7, runs: 1000 });
    expect(result.findings).toEqual([]);
    expect(result.generated).toBe(1000);
  });
});

describe('explore against the real pinned clients', () => {
  it('a small seeded budget finds only findings recorded in results/explore-known.json', async () => {
    const known = KnownFileSchema.parse(JSON.parse(readFileSync(join(ROOT, 'results', 'explore-known.json'), 'utf8')));
    const settings = { seed: known.settings.seed, runs: 40, clients: known.settings.clients, maxSteps: DEFAULT_MAX_STEPS };
    const lines = settings.clients;
    const result = await explore((s) => runSequence(s, lines, { stepLimitMs: 2000 }), settings);
    expect(result.findings.length).toBeGreaterThan(0);
    const comparison = compareWithKnown(known, result.findings, settings);
    expect(comparison.new).toEqual([]);
    // Each finding's minimal sequence shows its class again on the real clients.
    for (const finding of result.findings) {
      const { checkTraces, violationClass } = await import('../probe/explore/oracles.ts');
      expect(checkTraces(await runSequence(finding.sequence, lines, { stepLimitMs: 2000 })).map(violationClass)).toContain(finding.class);
    }
  });
});

describe('explore on the command line', () => {
  it('refuses --update in CI, and bad --clients, with exit 2', async () => {
    const ci = await runMain(['explore', '--update'], { env: { CI: 'true' } });
    expect([ci.code, ci.stderr]).toEqual([2, 'mcp-sdk-probe: --update rewrites the known findings and is refused when CI is set\n']);
    const bad = await runMain(['explore', '--clients', 'v1,v3']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--clients v1,v3');
  });

  it('records with --update; the same settings then match byte for byte; a finding replays (exit 1) and renders as Markdown', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'explore-known-'));
    const known = join(dir, 'known.json');
    const args = (out: string) => ['explore', '--runs', '40', '--known', known, '--out', join(dir, out)];
    const first = await runMain([...args('a'), '--update']);
    expect([first.code, first.stdout]).toEqual([0, expect.stringMatching(/explore: 40 sequences generated \(seed 13\)[^]*recorded the findings in /)]);
    const second = await runMain(args('b'));
    expect([second.code, second.stdout]).toEqual([0, expect.stringContaining(' 0 new, ')]);
    const files = readdirSync(join(dir, 'a')).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThan(0);
    for (const name of files) expect(readFileSync(join(dir, 'b', name), 'utf8')).toBe(readFileSync(join(dir, 'a', name), 'utf8'));

    const replay = await runMain(['explore', '--replay', join(dir, 'a', files[0]!)]);
    expect([replay.code, replay.stdout]).toEqual([1, expect.stringContaining('reproduced:')]);
    const markdown = await runMain(['explore', '--replay', join(dir, 'a', files[0]!), '--format', 'markdown']);
    expect(markdown.stdout).toMatch(/^# explore finding: /);
    expect((await runMain(['explore', '--replay', join(dir, 'missing.json')])).code).toBe(2);
  });

  it('names the file and the field of a bad finding or known-findings file, exit 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'explore-bad-'));
    writeFileSync(join(dir, 'finding.json'), JSON.stringify({ schemaVersion: 1, class: 'x', oracle: 'differential', clients: ['v1'], sequence: { server: { pageSize: 0, tools: [] }, steps: [] } }));
    const finding = await runMain(['explore', '--replay', join(dir, 'finding.json')]);
    expect([finding.code, finding.stderr]).toEqual([2, expect.stringMatching(/finding\.json: not a valid explore finding: sequence\.server\.pageSize: /)]);
    writeFileSync(join(dir, 'known.json'), JSON.stringify({ schemaVersion: 1, findings: [] }));
    const known = await runMain(['explore', '--runs', '1', '--known', join(dir, 'known.json'), '--out', join(dir, 'out')]);
    expect([known.code, known.stderr]).toEqual([2, expect.stringMatching(/known\.json: not a valid known-findings file: settings: /)]);
  });

  // An index past the server's arrays was once wrapped (modulo) and replayed another sequence, exit 0.
  const server = { pageSize: 1, tools: [{ name: 'alpha', versions: [{ properties: ['b'], required: [], closed: false }] }] };
  it.each([
    ['a call step\'s tool', { do: 'call', tool: 1, conforms: 'current', isError: false, structured: true }, /sequence\.steps\[0\]\.tool: tool 1 is past the server's 1 tool \(0 to 0\)$/],
    ['a change step\'s tool', { do: 'change', tool: 7, notify: true }, /sequence\.steps\[0\]\.tool: tool 7 is past the server's 1 tool/],
    ['a list step\'s page', { do: 'list', how: 'page', page: 1 }, /sequence\.steps\[0\]\.page: page 1 is past the server's 1 page \(0 to 0\)$/],
    ['a page on a list step that is not by page', { do: 'list', how: 'plain', page: 0 }, /sequence\.steps\[0\]\.page: a page is given only with how "page", not "plain"$/],
  ])('refuses %s out of range, naming the field, exit 2', async (_what, step, message) => {
    const dir = mkdtempSync(join(tmpdir(), 'explore-index-'));
    writeFileSync(join(dir, 'finding.json'), JSON.stringify({ schemaVersion: 1, class: 'x', oracle: 'differential', clients: ['v1'], sequence: { server, steps: [step] } }));
    const replay = await runMain(['explore', '--replay', join(dir, 'finding.json')]);
    expect(replay.code).toBe(2);
    expect(replay.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(message)]);
  });

});

describe('the known-findings comparison', () => {
  const finding = (c: string) => ({ class: c }) as Parameters<typeof compareWithKnown>[1][number];
  const settings = { seed: 13, runs: 400, clients: ['v1' as const, 'v2' as const], maxSteps: 6 };
  const known = { schemaVersion: 1 as const, settings, findings: [{ class: 'a', sequence: 's', file: 'a.json' }, { class: 'b', sequence: 's', file: 'b.json' }] };
  // [situation, known file, found classes, settings, new, stale, exit code]
  const table: [string, typeof known | undefined, string[], typeof settings, string[], string[], 0 | 1][] = [
    ['all found, same settings', known, ['a', 'b'], settings, [], [], 0],
    ['one new', known, ['a', 'b', 'c'], settings, ['c'], [], 1],
    ['one missing with the recorded settings: stale', known, ['a'], settings, [], ['b'], 1],
    ['one missing with other settings: not stale', known, ['a'], { ...settings, runs: 40 }, [], [], 0],
    ['no known file: everything is new', undefined, ['a'], settings, ['a'], [], 1],
  ];
  it.each(table)('%s', (_name, file, found, used, fresh, stale, code) => {
    const comparison = compareWithKnown(file, found.map(finding), used);
    expect([comparison.new, comparison.stale, exploreExitCode(comparison, false)]).toEqual([fresh, stale, code]);
    expect(exploreExitCode(comparison, true)).toBe(0);
  });
});

describe('a finding as a scenario file', () => {
  const server = { pageSize: 1, tools: [{ name: 'alpha', versions: [{ properties: ['b' as const], required: [], closed: false }] }] };
  const errorCall = { do: 'call', tool: 0, conforms: 'none', isError: true, structured: true } as const;

  it('a warm one-tool finding runs under --scenarios and passes with what each client did', async () => {
    const finding = { class: 'differential:v1+v2:error,sc:rejected(client-output-schema)/returned', sequence: { server, steps: [{ do: 'list', how: 'plain' } as const, errorCall] } };
    const traces = await runSequence(finding.sequence, ['v1', 'v2'], { stepLimitMs: 2000 });
    const scenario = scenarioOf(finding, traces)!;
    // Observed: v1 checks the error result against the listed schema and throws -32602; v2 hands it back.
    expect(scenario.expected).toEqual({ 'v1/warm': 'rejected:-32602', 'v2/warm': 'returned' });
    const dir = mkdtempSync(join(tmpdir(), 'explore-scenarios-'));
    const out = join(mkdtempSync(join(tmpdir(), 'explore-result-')), 'result.json');
    writeFileSync(join(dir, 'finding.json'), serializeScenario(scenario));
    const run = await runMain(['--scenarios', dir, '--case', '**/explore-*', '--out', out]);
    expect(run.stdout).toContain('2 passed, 0 failed');
    // The same file with the clients swapped fails: the scenario checks the behaviour, not just runs.
    writeFileSync(join(dir, 'finding.json'), serializeScenario({ ...scenario, expected: { 'v1/warm': 'returned', 'v2/warm': 'rejected:-32602' } }));
    const swapped = await runMain(['--scenarios', dir, '--case', '**/explore-*', '--out', out]);
    expect([swapped.stderr, swapped.stdout]).toEqual(['', expect.stringContaining('0 passed, 2 failed')]);
  });

  it('a sequence the scenario format cannot say has no scenario', () => {
    const changed = { server, steps: [{ do: 'list', how: 'plain' } as const, { do: 'change', tool: 0, notify: true } as const, errorCall] };
    expect(scenarioOf({ class: 'x', sequence: changed }, [])).toBeUndefined();
    const paged = { server: { ...server, tools: [...server.tools, ...server.tools] }, steps: [errorCall] };
    expect(scenarioOf({ class: 'x', sequence: paged }, [])).toBeUndefined();
  });
});

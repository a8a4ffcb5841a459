// `sweep --format html` and `merge --format html`: a real sweep result (the pinned clients, offline)
// rendered to one page, opened in a real headless Chromium (--dump-dom), and every cell of the grid
// checked against the sweep JSON; then the same result with releases added (one that behaves the same,
// one that did not load, one that changed a case) for the joined cells and the change points. Runs whenever Chromium is installed, and always
// in CI (.ci/run installs it); only a machine without it and without CI skips, saying so.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { isCi } from '../probe/commands/cli.ts';
import { renderSweepHtml } from '../probe/render/sweep-html.ts';
import { behaviourOf, changePoints, describeBehaviour, SweepResultSchema, type SweepResult } from '../probe/sweep/model.ts';
import { runMain } from './helpers/main.ts';
import { TEST_RESULTS } from './helpers/test-project.ts';

const CHROMIUM = '/usr/bin/chromium';
const skip = !existsSync(CHROMIUM) && !isCi(process.env);
if (skip) console.warn(`test/sweep-html.test.ts: skipped, ${CHROMIUM} is not installed (apt-get install chromium; in CI this test always runs)`);

/** The DOM Chromium built from the page, with the network off and a throwaway profile. */
function dumpDom(file: string, profile: string): string {
  return execFileSync(
    CHROMIUM,
    ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', `--user-data-dir=${profile}`, '--dump-dom', pathToFileURL(file).href],
    { encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'ignore'] },
  );
}

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: '\u00a0' };
const unescape = (text: string) => text.replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name: string) => entities[name]!);

interface GridCell {
  readonly case: string;
  readonly releases: string[];
  readonly behaviour: string;
  readonly change?: string;
}

/** The grid's cells as the browser serialized them: every <td> with a data-case attribute. */
function gridCells(dom: string): GridCell[] {
  return [...dom.matchAll(/<td\b([^>]*)>/g)].flatMap(([, attrs]) => {
    const values = Object.fromEntries([...attrs!.matchAll(/([\w-]+)="([^"]*)"/g)].map(([, name, value]) => [name, unescape(value!)]));
    if (values['data-case'] === undefined) return [];
    return [{ case: values['data-case'], releases: values['data-releases']!.split(' '), behaviour: values['data-behaviour']!, ...(values['data-change'] && { change: values['data-change'] }) }];
  });
}

/** What the sweep JSON says each (case, release) cell must show. */
function expectedCells(result: SweepResult): Map<string, string> {
  const expected = new Map<string, string>();
  const ids = new Set(result.releases.flatMap((run) => (run.status === 'ran' ? run.cases.map((c) => c.id) : [])));
  for (const run of result.releases) {
    for (const id of ids) {
      if (!id.startsWith(`${run.release.line}/`)) continue;
      const record = run.status === 'ran' ? run.cases.find((c) => c.id === id) : undefined;
      expected.set(`${id} @ ${run.release.label}`, run.status === 'failed' ? `failed (${run.stage})` : record ? describeBehaviour(behaviourOf(record.observed)) : '—');
    }
  }
  return expected;
}

describe.skipIf(skip)('the sweep as an HTML page, in a real browser', () => {
  let dir: string;
  let result: SweepResult;
  let page: string;
  let dom: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-sweep-html-'));
    const run = await runMain(['sweep', '--v1', '1.32.2', '--v2', '2.4.0', '--case', '*/warm/*', '--format', 'html', '--out', join(dir, 'sweep.html'), '--baseline', join(dir, 'none.json')]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Sweep report (HTML) written to');
    page = readFileSync(join(dir, 'sweep.html'), 'utf8');
    // With --out taking the page, the result JSON goes to its default path.
    result = SweepResultSchema.parse(JSON.parse(readFileSync(join(TEST_RESULTS, 'sweep-latest.json'), 'utf8')));
    dom = dumpDom(join(dir, 'sweep.html'), join(dir, 'profile'));
  }, 120_000);

  it('shows every case × release of the sweep JSON with the behaviour the JSON records', () => {
    const cells = gridCells(dom);
    expect(cells.length).toBeGreaterThan(0);
    const shown = new Map<string, string>();
    for (const cell of cells) for (const label of cell.releases) shown.set(`${cell.case} @ ${label}`, cell.behaviour);
    expect(shown).toEqual(expectedCells(result));
    expect(new Set(cells.map((cell) => cell.case.split('/')[0]))).toEqual(new Set(['v1', 'v2']));
  });

  it('is self-contained: no script, no stylesheet or image to fetch, no http(s) URL', () => {
    expect(page).not.toMatch(/https?:\/\//i);
    expect(page).not.toMatch(/<script|<link|<img|<iframe|@import|url\(/i);
    expect(page).toMatch(/<style>/);
  });

  it('joins releases that behaved the same, keeps a release that did not run apart, and marks change points linked to the case details', () => {
    const [ran] = result.releases.filter((r) => r.status === 'ran' && r.release.line === 'v2');
    if (ran?.status !== 'ran') throw new Error('no v2 release ran');
    const id = ran.cases[0]!.id;
    const as = (label: string) => ({ ...ran.release, label, version: label });
    // 2.4.1 behaves as 2.4.0; 2.4.2 did not load; 2.5.0 rejects the first case (with markup in its message).
    const same = { ...ran, release: as('2.4.1') };
    const failed = { status: 'failed' as const, release: as('2.4.2'), stage: 'load' as const, error: { name: 'Error', code: null, message: 'no dist' } };
    const observed = { outcome: 'rejected' as const, error: { name: 'ProtocolError', code: -32602, message: '<m> & "q"' }, by: 'client-output-schema' as const, serverSent: 'as-scenario' as const };
    const changed = { ...ran, release: as('2.5.0'), cases: ran.cases.map((c) => (c.id === id ? { ...c, observed } : c)) };
    const releases: SweepResult['releases'] = [...result.releases, same, failed, changed];
    const grown = { ...result, releases, changePoints: changePoints(releases) };
    const file = join(dir, 'grown.html');
    writeFileSync(file, renderSweepHtml(grown));
    const grownDom = dumpDom(file, join(dir, 'profile-2'));
    const cells = gridCells(grownDom);
    const shown = new Map<string, string>();
    for (const cell of cells) for (const label of cell.releases) shown.set(`${cell.case} @ ${label}`, cell.behaviour);
    expect(shown).toEqual(expectedCells(grown));
    // 2.4.0 and 2.4.1 share one cell in every v2 row; the failed 2.4.2 is a cell of its own, so 2.5.0
    // never joins them across it.
    const v2 = cells.filter((cell) => cell.case.startsWith('v2/'));
    expect(v2.filter((cell) => cell.releases.join(' ') === '2.4.0 2.4.1')).toHaveLength(ran.cases.length);
    expect(v2.filter((cell) => cell.behaviour === 'failed (load)').map((cell) => cell.releases)).toEqual(ran.cases.map(() => ['2.4.2']));
    const marked = cells.filter((cell) => cell.change);
    expect(marked).toEqual([{ case: id, releases: ['2.5.0'], behaviour: 'rejected -32602', change: '2.4.1 → 2.5.0' }]);
    const anchor = /<a class="change" href="#([^"]+)" title="change point: [^"]+">/.exec(grownDom);
    expect(anchor).not.toBeNull();
    const details = new RegExp(`<details id="${anchor![1]}" data-case="${id}" open="">([\\s\\S]*?)</details>`).exec(grownDom);
    expect(details?.[1]).toContain('Sent result');
    expect(details?.[1]).toContain('rejected -32602');
    // Text from a result is escaped, never markup.
    expect(details?.[1]).toContain('&lt;m&gt; &amp; \\"q\\"');
  });

  it('opens with a change-point summary: behaviour first, identity ones counted apart, each linking to its row in the grid', () => {
    const v2 = result.releases.filter((r) => r.status === 'ran' && r.release.line === 'v2');
    const [ran] = v2;
    if (ran?.status !== 'ran') throw new Error('no v2 release ran');
    const [first, second] = ran.cases;
    const as = (label: string) => ({ ...ran.release, label, version: label });
    const rejectedAs = (name: string, code: number) => ({ outcome: 'rejected' as const, error: { name, code, message: 'm' }, by: 'client-output-schema' as const, serverSent: 'as-scenario' as const });
    // The first case (in case order) is only renamed from 2.5.0 to 2.6.0; the second changes its code at 2.6.0.
    // A case id is data: one that reads like markup and like another id once cut to a fragment.
    const hostileId = `${second!.id}"><img src=x onerror=alert(1)>`;
    const release = (label: string, firstName: string, secondCode: number) => ({
      ...ran,
      release: as(label),
      cases: [
        { ...first!, observed: rejectedAs(firstName, -32602) },
        { ...second!, id: hostileId, observed: rejectedAs('ProtocolError', secondCode) },
      ],
    });
    const releases: SweepResult['releases'] = [release('2.5.0', 'ProtocolError', -32602), release('2.6.0', 'RenamedError', -32603)];
    const swept = { ...result, releases, changePoints: changePoints(releases) };
    expect(swept.changePoints.map((p) => [p.caseId, p.kind])).toEqual([
      [hostileId, 'behaviour'],
      [first!.id, 'identity'],
    ]);
    const file = join(dir, 'summary.html');
    writeFileSync(file, renderSweepHtml(swept));
    const summaryDom = dumpDom(file, join(dir, 'profile-3'));
    const section = /<section id="change-points">([\s\S]*?)<\/section>/.exec(summaryDom)?.[1] ?? '';
    // Before the grid, with both counts in its heading.
    expect(summaryDom.indexOf('<section id="change-points">')).toBeLessThan(summaryDom.indexOf('<table class="grid"'));
    expect(unescape(/<h2>([^<]*)<\/h2>/.exec(section)?.[1] ?? '')).toBe('Change points: 1 behaviour change point, 1 identity change point (the error class name only)');
    // Behaviour first (the hostile id, as text), then the rename.
    const kinds = [...section.matchAll(/data-change-kind="(\w+)"/g)].map((m) => m[1]);
    expect(kinds).toEqual(['behaviour', 'identity']);
    expect(section.indexOf('Behaviour (1)')).toBeLessThan(section.indexOf('Identity only (1)'));
    expect(section).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(summaryDom).not.toMatch(/<img/);
    // Every link of the summary lands on a row of the grid (or a case's details) that exists, one per case.
    const targets = [...section.matchAll(/href="#([^"]+)"/g)].map((m) => m[1]!);
    expect(targets.length).toBeGreaterThanOrEqual(3);
    for (const target of targets) expect(summaryDom).toMatch(new RegExp(`<(tr|details) id="${target}"`));
    const rowOf = (caseId: string) => {
      const li = [...section.matchAll(/<(?:li|span) data-case="([^"]*)"[^>]*>[\s\S]*?href="#(row-[^"]+)"/g)].find((m) => unescape(m[1]!) === caseId);
      return li?.[2];
    };
    const [behaviourRow, identityRow] = [rowOf(hostileId), rowOf(first!.id)];
    expect(behaviourRow).toBeDefined();
    expect(identityRow).toBeDefined();
    expect(behaviourRow).not.toBe(identityRow);
    const row = new RegExp(`<tr id="${behaviourRow}"><th scope="row"><a href="#[^"]+">([^<]*)</a>`).exec(summaryDom);
    expect(unescape(row?.[1] ?? '')).toBe(hostileId);
    // In the grid, the rename is marked apart from the behaviour change.
    const marked = gridCells(summaryDom).filter((cell) => cell.change);
    expect(marked.map((cell) => [cell.case, cell.releases])).toEqual([
      [first!.id, ['2.6.0']],
      [hostileId, ['2.6.0']],
    ]);
    expect(summaryDom).toMatch(/<a class="change identity" href="#[^"]+" title="identity change point: [^"]*">△<\/a>/);
  });

  it('merge --format html renders the merged shards', async () => {
    const shard = join(dir, 'shard.json');
    const swept = await runMain(['sweep', '--v2', '2.4.0', '--case', 'v2/warm/error-*', '--shard', '1/1', '--out', shard]);
    expect(swept.code, swept.stderr).toBe(0);
    const merged = await runMain(['merge', shard, '--format', 'html', '--baseline', join(dir, 'none.json')]);
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stdout).toMatch(/^<!doctype html>/);
    expect(gridCells(merged.stdout).map((cell) => cell.case)).toEqual(['v2/warm/error-text-only', 'v2/warm/error-off-schema', 'v2/warm/error-conforming']);
  });
});

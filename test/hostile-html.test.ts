// Issue 20: the sweep's HTML page for a sweep result whose data carries hostile strings, opened in a
// real Chromium (Debian's /usr/bin/chromium, driven by playwright-core): the page renders, every string
// shows as text, no script runs, no request leaves the page, and its Content-Security-Policy holds even
// for markup that got past the escaping (the second layer). Runs whenever Chromium is installed, and
// always in CI; only a machine without it and without CI skips, saying so.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCi } from '../probe/commands/cli.ts';
import { renderSweepHtml } from '../probe/render/sweep-html.ts';
import { SweepResultSchema, type SweepResult } from '../probe/sweep/model.ts';
import { controlBytes, HOSTILE_STRINGS } from './helpers/hostile.ts';
import { runMain } from './helpers/main.ts';

const CHROMIUM = '/usr/bin/chromium';
const skip = !existsSync(CHROMIUM) && !isCi(process.env);
if (skip) console.warn(`test/hostile-html.test.ts: skipped, ${CHROMIUM} is not installed (apt-get install chromium; in CI this test always runs)`);

/** Markup that acts if it is ever live: each sets a global, fetches, or navigates. */
const LIVE_MARKUP = [
  '<script>window.__pwned = "script"</script>',
  '<img src=x onerror="window.__pwned = \'onerror\'">',
  '<svg onload="window.__pwned = \'svg\'"></svg>',
  '<img src="https://tracker.example/pixel.png">',
  '<link rel="stylesheet" href="https://evil.example/x.css">',
  '<style>body{background:url(https://tracker.example/css.png)}</style>',
  '<iframe src="https://evil.example/frame"></iframe>',
  '<form action="https://evil.example/post"><button id="go">go</button></form>',
];
const ALL = [...Object.values(HOSTILE_STRINGS), ...LIVE_MARKUP].join(' | ');

interface Visit {
  readonly requests: string[];
  readonly dialogs: string[];
  readonly pwned: unknown;
  readonly csp: string | null;
  readonly cells: number;
  readonly text: string;
}

/** Opens the page as a reader would, recording every request it makes and every dialog it opens. */
async function visit(browser: Browser, file: string): Promise<Visit> {
  const context = await browser.newContext({ javaScriptEnabled: true });
  const requests: string[] = [];
  const dialogs: string[] = [];
  const page = await context.newPage();
  const url = pathToFileURL(file).href;
  // What reaches the network layer would leave the page: each such request is recorded, then aborted, so
  // nothing leaves this machine either way. (A request the CSP blocks never gets here; DevTools still
  // lists it, as "blocked:csp", so page.on('request') would count it.)
  await context.route('**/*', async (route) => {
    if (route.request().url() === url) return route.continue();
    requests.push(route.request().url());
    return route.abort();
  });
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForTimeout(200);
  const seen = await page.evaluate(() => ({
    pwned: (window as unknown as { __pwned?: unknown }).__pwned,
    csp: document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') ?? null,
    cells: document.querySelectorAll('table.grid td').length,
    text: document.body.innerText,
  }));
  // A form in the page would send what it holds when submitted: form-action 'none' stops the request.
  if (await page.$('#go')) {
    await page.click('#go', { noWaitAfter: true }).catch(() => undefined);
    await page.waitForTimeout(200);
  }
  await context.close();
  return { requests, dialogs, ...seen };
}

describe.skipIf(skip)('the sweep page for hostile data, in a real browser', () => {
  let dir: string;
  let browser: Browser;
  let hostile: SweepResult;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-hostile-html-'));
    // A real sweep: the pinned v1, and a release folder whose module throws the hostile text.
    const release = join(dir, 'sdk-release');
    mkdirSync(join(release, 'client'), { recursive: true });
    writeFileSync(join(release, 'package.json'), JSON.stringify({ name: '@modelcontextprotocol/sdk', version: '1.99.0' }));
    writeFileSync(join(release, 'client', 'index.js'), `throw new Error(${JSON.stringify(ALL)});\n`);
    const env = { MCP_SDK_PROBE_CACHE: join(dir, 'cache') };
    const sweeps = [];
    for (const v1 of ['1.32.2', release]) {
      const out = join(dir, `sweep-${sweeps.length}.json`);
      const run = await runMain(['sweep', '--v1', v1, '--case', 'v1/warm/*', '--baseline', join(dir, 'none.json'), '--out', out], { env });
      expect(run.code, run.stderr).toBe(0);
      sweeps.push(SweepResultSchema.parse(JSON.parse(readFileSync(out, 'utf8'))));
    }
    const [pinned, failed] = sweeps as [SweepResult, SweepResult];
    // The data fields the page shows, each carrying every hostile string (as a shard or a sweep JSON from
    // someone else would): the matrix title, what each case asks, the result sent, the errors observed.
    hostile = SweepResultSchema.parse({
      ...pinned,
      matrix: { ...pinned.matrix, title: ALL },
      releases: [
        ...pinned.releases.map((run) =>
          run.status !== 'ran'
            ? run
            : {
                ...run,
                cases: run.cases.map((record) => ({
                  ...record,
                  question: ALL,
                  reference: ALL,
                  result: { ...record.result, content: [{ type: 'text', text: ALL }] },
                  ...(record.observed.outcome === 'rejected' && { observed: { ...record.observed, error: { ...record.observed.error, message: ALL } } }),
                })),
              },
        ),
        ...failed.releases,
      ],
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('renders, shows every string as text, runs nothing, requests nothing, and carries its CSP', async () => {
    const file = join(dir, 'hostile.html');
    const page = renderSweepHtml(hostile);
    writeFileSync(file, page);
    const seen = await visit(browser, file);
    expect(seen.cells).toBeGreaterThan(0);
    expect([seen.requests, seen.dialogs, seen.pwned]).toEqual([[], [], undefined]);
    expect(seen.csp ?? 'no CSP').toMatch(/default-src 'none'/);
    // The failed release's error and the matrix title, as text: markup literal, controls shown as escapes.
    expect(seen.text).toContain('<script>window.__pwned = "script"</script>');
    expect(seen.text).toContain('\\e[2J\\e[H');
    expect(seen.text).toContain('abc\\u{202e}dcba');
    expect(controlBytes(page)).toEqual([]);
    expect(page).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
  });

  it('its Content-Security-Policy stops live markup that got into the page unescaped (the second layer)', async () => {
    const file = join(dir, 'unescaped.html');
    writeFileSync(file, renderSweepHtml(hostile).replace('<body>', `<body>${LIVE_MARKUP.join('\n')}`));
    const seen = await visit(browser, file);
    expect(seen.cells).toBeGreaterThan(0);
    expect([seen.requests, seen.dialogs, seen.pwned]).toEqual([[], [], undefined]);
  });
});

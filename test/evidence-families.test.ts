// The Markdown evidence tells the truth for every family: golden files for a case of every extended
// family and discovery mode (rendered from the recorded real run, so no SDK runs here) and for a replay,
// and a parse of the whole extended matrix's Markdown checking, case by case, that what it says about
// discovery, transport and server is what the record says. The keywords below are written independently
// of the renderer's wording table, so a renderer that states another mode or server for a case fails.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { marked } from 'marked';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CaseRecord, Discovery, Fixture, ResultFile, TransportKind } from '../probe/core/domain.ts';
import { runMatrix } from '../probe/engine/run.ts';
import { readCapture } from '../probe/io/capture.ts';
import { parseResultText } from '../probe/io/json-files.ts';
import { renderMarkdown, type EvidenceContext } from '../probe/render/markdown.ts';
import { replayMatrix } from '../scenarios/replay.ts';
import { FIXED_ENVIRONMENT } from './fixtures.ts';

const ROOT = join(import.meta.dirname, '..');
const context: EvidenceContext = { argv: ['--matrix', 'extended', '--format', 'markdown'], harness: { name: 'mcp-sdk-probe', version: '0.0.0' } };

/** One case of every family, and every discovery mode, transport and fixture server among them. */
const SAMPLE = [
  'v2/cold/conforming-success',
  'v2/definition/off-schema-success',
  'v1/all-pages/paged-off-schema-success',
  'v2/one-page/paged-off-schema-success',
  'v1/changed/schema-widened-off-schema-success',
  'v1/warm/error-structured-zero',
  'v1/warm/wrapped-success-structured-null',
  'v1/warm/schema-bad-pattern',
  'v2/warm/v1-mcp-server-off-schema-success',
  'v1/warm/v2-mcp-server-unknown-tool',
  'v1/warm/low-level-handler-throws',
  'v1/warm/fault-close-mid-call',
  'v2/warm/fault-never-answers',
  'v2/warm/modern-era-string-off-schema',
  'v1/warm/stdio-off-schema-success',
  'v2/warm/http-error-off-schema',
];

const DISCOVERY_SAYS: Record<Discovery, RegExp> = {
  warm: /warm: after tools\/list, as an application/,
  cold: /cold: without tools\/list/,
  definition: /definition: without tools\/list; the application hands callTool the tool definition/,
  'all-pages': /all-pages: after walking every tools\/list page/,
  'one-page': /one-page: after fetching only the tool's page/,
  changed: /changed: after tools\/list; then the server changed the outputSchema/,
  'tools-automatic': /tools-automatic: the AI SDK's tools\(\) \(schemas from the server\)/,
  'tools-with-schemas': /tools-with-schemas: the AI SDK's tools\(\{ schemas \}\)/,
  'load-tools': /load-tools: LangChain's loadMcpTools over the v1 client/,
};
const TRANSPORT_SAYS: Record<TransportKind, RegExp> = {
  'in-memory': /over a linked in-memory transport\.$/,
  stdio: /over stdio \(the server in a child process\)\.$/,
  http: /over Streamable HTTP on a loopback port\.$/,
  'http-in-process': /over Streamable HTTP in process/,
};
const SERVER_SAYS: Record<Fixture['server'], RegExp> = {
  'v1-low-level': /^the v1 SDK's low-level Server/,
  'v1-mcp-server': /^the v1 SDK's McpServer\.registerTool/,
  'v2-mcp-server': /^the v2 server package's McpServer\.registerTool/,
  'v2-handler': /^the v2 server package's createMcpHandler/,
};
const ANSWER_SAYS: Record<Fixture['answer'], RegExp> = {
  result: /answers tools\/call with the result given/,
  hang: /never answers tools\/call/,
  close: /closes the connection/,
  malformed: /not JSON-RPC/,
  'wrong-id': /another request's id/,
  throw: /tool handler throws/,
};

function withCases(result: ResultFile, cases: CaseRecord[]): ResultFile {
  const passed = cases.filter((c) => c.verdict === 'pass').length;
  return { ...result, environment: FIXED_ENVIRONMENT, cases, summary: { passed, failed: cases.length - passed } };
}

/** Per case id, the text of its Client and Server statements, read from the HTML a Markdown parser made. */
function statements(markdown: string): Map<string, { client: string; server: string }> {
  const html = marked.parse(markdown, { gfm: true, async: false });
  const found = new Map<string, { client: string; server: string }>();
  for (const block of html.match(/<details>[\s\S]*?<\/details>/g) ?? []) {
    const id = /<summary><code>([^<]+)<\/code>/.exec(block)?.[1];
    const text = (label: string) => {
      const paragraph = new RegExp(`<p><strong>${label}:</strong> ([\\s\\S]*?)</p>`).exec(block)?.[1] ?? '';
      return paragraph.replace(/<[^>]+>/g, '').replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, '&');
    };
    if (id) found.set(id, { client: text('Client'), server: text('Server') });
  }
  return found;
}

function expectStatementsMatch(markdown: string, cases: readonly CaseRecord[]): void {
  const said = statements(markdown);
  expect([...said.keys()]).toEqual(cases.map((c) => c.id));
  for (const record of cases) {
    const { client, server } = said.get(record.id)!;
    expect(client, record.id).toMatch(DISCOVERY_SAYS[record.discovery]);
    for (const [mode, pattern] of Object.entries(DISCOVERY_SAYS)) if (mode !== record.discovery) expect(client, record.id).not.toMatch(pattern);
    expect(server, record.id).toMatch(SERVER_SAYS[record.fixture.server]);
    expect(server, record.id).toMatch(TRANSPORT_SAYS[record.transport]);
    expect(server, record.id).toMatch(ANSWER_SAYS[record.fixture.answer]);
    expect(server.includes('unwrapped'), record.id).toBe(record.fixture.registration === 'raw');
    expect(server.includes('two pages'), record.id).toBe(record.fixture.paginated === true);
    expect(server.includes('list_changed'), record.id).toBe(record.fixture.changesTo !== undefined);
  }
}

let extended: ResultFile;
let replay: ResultFile;
beforeAll(async () => {
  extended = parseResultText(readFileSync(join(ROOT, 'results', 'recorded-extended.json'), 'utf8'), 'results/recorded-extended.json');
  const capture = readCapture(join(ROOT, 'scenarios', 'captures', 'error-with-structured-content.json'), 'error-with-structured-content.json');
  const matrix = replayMatrix(capture, 'error-with-structured-content.json', []);
  replay = await runMatrix(matrix, matrix.scenarios, { environment: FIXED_ENVIRONMENT });
});

describe('Markdown evidence for every family', () => {
  it('matches the golden file for a case of every family, discovery mode, transport and server', async () => {
    const cases = SAMPLE.map((id) => extended.cases.find((c) => c.id === id)!);
    expect(new Set(cases.map((c) => c.family))).toEqual(new Set(extended.cases.map((c) => c.family)));
    await expect(renderMarkdown(withCases(extended, cases), undefined, context)).toMatchFileSnapshot('golden/extended-families-evidence.md');
  });

  it('matches the golden file for a replay', async () => {
    const markdown = renderMarkdown(replay, undefined, { ...context, argv: ['replay', 'scenarios/captures/error-with-structured-content.json', '--format', 'markdown'] });
    await expect(markdown).toMatchFileSnapshot('golden/replay-evidence.md');
  });

  it('states, for each of the 152 extended cases and each replay case, the discovery, transport and server of its record', () => {
    expectStatementsMatch(renderMarkdown(withCases(extended, extended.cases), undefined, context), extended.cases);
    expectStatementsMatch(renderMarkdown(replay, undefined, context), replay.cases);
  });

  it('the check can fail: a record whose discovery the Markdown misstates is caught', () => {
    const record = extended.cases.find((c) => c.discovery === 'definition')!;
    const markdown = renderMarkdown(withCases(extended, [record]), undefined, context).replace(
      /\*\*Client:\*\* (.*?), definition: [^\n]*/,
      '**Client:** $1, definition: without tools/list: the client has not seen the tool.',
    );
    expect(() => expectStatementsMatch(markdown, [record])).toThrow();
  });
});

// The ecosystem matrix (issue #12) against the real pinned @ai-sdk/mcp and @langchain/mcp-adapters, over
// real in-memory, stdio and Streamable HTTP connections; and the client-line contract that makes a line
// one adapter file and one package pin.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { adapters } from '../probe/clients/index.ts';
import { importLinePackage } from '../probe/clients/adapter.ts';
import { LINE_PINS } from '../probe/clients/packages.ts';
import { compareWithRecorded } from '../probe/core/compare.ts';
import { CLIENT_LINES, type Expected, type ResultFile } from '../probe/core/domain.ts';
import { judge } from '../probe/core/judge.ts';
import { environmentFor, runMatrix } from '../probe/engine/run.ts';
import { captureEnvironment } from '../probe/io/environment.ts';
import { parseResultText, serializeResult } from '../probe/io/json-files.ts';
import { auditMatrix } from '../scenarios/audit.ts';
import { ecosystemMatrix } from '../scenarios/ecosystem.ts';
import { extendedMatrix } from '../scenarios/extended/index.ts';

const ROOT = join(import.meta.dirname, '..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

// What each ecosystem line was observed to do with the audit's six shapes, written out again apart from
// scenarios/ecosystem.ts: [shape, ai-sdk (warm, cold, tools-automatic), ai-sdk tools-with-schemas, langchain].
// `returned`/`isError` = handed back with that isError; a class name = thrown.
const TABLE: [shape: string, aiSdk: string, withSchemas: string, langchain: string][] = [
  ['conforming-success', 'returned', 'returned', 'returned'],
  ['off-schema-success', 'returned', 'MCPClientError', 'ToolException'],
  ['success-without-structured', 'returned', 'MCPClientError', 'ToolException'],
  ['error-text-only', 'isError', 'isError', 'ToolException'],
  ['error-off-schema', 'isError', 'isError', 'ToolException'],
  ['error-conforming', 'isError', 'isError', 'ToolException'],
];

function said(record: ResultFile['cases'][number]): string {
  const o = record.observed;
  if (o.outcome === 'rejected') return o.error.name;
  if (o.outcome === 'returned') return o.isError === true ? 'isError' : 'returned';
  return o.outcome;
}

/** Expectations the real observation must fail: another outcome, another class, another payload. */
function contrary(expected: Expected): Expected[] {
  if (expected.outcome === 'rejected') return [{ outcome: 'returned', isError: false }, { ...expected, name: 'OtherError' }];
  if (expected.outcome !== 'returned') return [{ outcome: 'returned', isError: false }];
  return [
    { outcome: 'rejected' },
    { ...expected, isError: !expected.isError },
    expected.otherKeys ? { ...expected, otherKeys: { changed: true } } : { ...expected, structuredContent: { value: 'other' } },
  ];
}

describe('the ecosystem matrix against the pinned packages', () => {
  let result: ResultFile;
  beforeAll(async () => {
    const environment = environmentFor(ecosystemMatrix.scenarios, captureEnvironment());
    // A generous limit for the cases without one of their own (a stdio child under a loaded machine); the
    // fault cases wait their own 500 ms, so no recorded outcome depends on it.
    result = await runMatrix(ecosystemMatrix, ecosystemMatrix.scenarios, { environment, timeoutMs: 20_000, pool: {} });
  }, 240_000);

  it('matches results/recorded-ecosystem.json case for case, and every case passes', () => {
    const recorded = parseResultText(readFileSync(join(ROOT, 'results', 'recorded-ecosystem.json'), 'utf8'), 'recorded-ecosystem.json');
    const comparison = compareWithRecorded(recorded, result, { fullMatrix: true });
    expect(comparison.counts).toMatchObject({ matched: ecosystemMatrix.scenarios.length, changed: 0, new: 0, stale: 0 });
    expect(result.summary).toEqual({ passed: ecosystemMatrix.scenarios.length, failed: 0 });
    // Byte for byte as recorded (the file is the canonical serialisation).
    expect(serializeResult(result)).toBe(readFileSync(join(ROOT, 'results', 'recorded-ecosystem.json'), 'utf8'));
  });

  it('names each line and the exact package versions that ran', () => {
    expect(result.environment.packages).toMatchObject({ ...LINE_PINS['ai-sdk'], ...LINE_PINS.langchain, '@modelcontextprotocol/sdk': '1.32.2' });
    const byLine = Object.fromEntries(result.cases.map((c) => [c.client, c.clientPackage]));
    expect(byLine).toEqual({
      v1: '@modelcontextprotocol/sdk@1.32.2',
      v2: '@modelcontextprotocol/client@2.4.0',
      'ai-sdk': '@ai-sdk/mcp@2.0.99',
      langchain: '@langchain/mcp-adapters@1.1.4',
    });
  });

  it.each(TABLE)('%s: ai-sdk %s, with schemas %s, langchain %s', (shape, aiSdk, withSchemas, langchain) => {
    const at = (id: string) => result.cases.find((c) => c.id === id)!;
    for (const mode of ['warm', 'cold', 'tools-automatic']) expect(said(at(`ai-sdk/${mode}/${shape}`)), mode).toBe(aiSdk);
    expect(said(at(`ai-sdk/tools-with-schemas/${shape}`))).toBe(withSchemas);
    expect(said(at(`langchain/load-tools/${shape}`))).toBe(langchain);
    for (const transport of ['http', 'stdio']) {
      const over = result.cases.find((c) => c.id === `langchain/load-tools/${transport}-${shape}`);
      expect(over && said(over), transport).toBe(langchain);
    }
  });

  it('records the application value, not a CallToolResult, where a line hands back something else', () => {
    const withSchemas = result.cases.find((c) => c.id === 'ai-sdk/tools-with-schemas/conforming-success')!.observed;
    expect(withSchemas).toMatchObject({ outcome: 'returned', otherKeys: { output: { value: 7 } } });
    expect(withSchemas).not.toHaveProperty('structuredContent');
    const langchain = result.cases.find((c) => c.id === 'langchain/load-tools/conforming-success')!.observed;
    expect(langchain).toMatchObject({ outcome: 'returned', otherKeys: { toolMessage: { status: 'success', artifact: [{ type: 'mcp_structured_content', data: { value: 7 } }] } } });
    const isError = result.cases.find((c) => c.id === 'langchain/load-tools/error-text-only')!.observed;
    expect(isError).toMatchObject({ outcome: 'rejected', error: { name: 'ToolException', message: expect.stringContaining('returned an error: The value service is unavailable.') } });
  });

  it('fails every contrary expectation with the real observations (no case can pass whatever happens)', () => {
    for (const record of result.cases) {
      for (const wrong of contrary(record.expected!)) expect(judge(wrong, record.observed).verdict, `${record.id} ${JSON.stringify(wrong)}`).toBe('fail');
    }
  });
});

describe('client lines: one adapter file and one package pin each', () => {
  it('registers an adapter for every line, naming its own line and package', () => {
    for (const line of CLIENT_LINES) {
      expect(adapters[line].line).toBe(line);
      expect(adapters[line].discoveries.length).toBeGreaterThan(0);
      expect(adapters[line].transports).toContain('in-memory');
    }
  });

  it("runs every built-in case only with a discovery mode and a transport its line's adapter has", () => {
    for (const matrix of [auditMatrix, extendedMatrix, ecosystemMatrix]) {
      for (const scenario of matrix.scenarios) {
        const adapter = adapters[scenario.client];
        expect(adapter.discoveries, scenario.id).toContain(scenario.discovery);
        // The createMcpHandler fixture is reached through the v2 transport's fetch, whatever the case says.
        if (scenario.server.kind !== 'v2-handler') expect(adapter.transports, scenario.id).toContain(scenario.transport ?? 'in-memory');
      }
    }
  });

  it('pins each ecosystem package exactly, as a devDependency and an optional peerDependency', () => {
    for (const pins of Object.values(LINE_PINS)) {
      for (const [name, version] of Object.entries(pins)) {
        expect(manifest.devDependencies[name], name).toBe(version);
        expect(manifest.peerDependencies[name], name).toBe(version);
        expect(manifest.peerDependenciesMeta[name], name).toEqual({ optional: true });
      }
    }
  });

  it('repeats only the audit\'s own v1/v2 cells under the audit\'s ids, with the audit\'s expectations', () => {
    const audit = new Map(auditMatrix.scenarios.map((s) => [s.id, s]));
    const shared = ecosystemMatrix.scenarios.filter((s) => audit.has(s.id));
    expect(shared.map((s) => s.id).sort()).toEqual(auditMatrix.scenarios.filter((s) => s.discovery === 'warm').map((s) => s.id).sort());
    for (const scenario of shared) expect(scenario.expected, scenario.id).toEqual(audit.get(scenario.id)!.expected);
    expect(extendedMatrix.scenarios.filter((s) => ecosystemMatrix.scenarios.some((e) => e.id === s.id))).toEqual([]);
  });

  it('names the package to install, in one line, when a line\'s package is missing', async () => {
    const missing = Object.assign(new Error("Cannot find package '@ai-sdk/mcp'"), { code: 'ERR_MODULE_NOT_FOUND' });
    await expect(importLinePackage('ai-sdk', () => Promise.reject(missing))).rejects.toThrow(
      /^the ai-sdk client line needs @ai-sdk\/mcp@2\.0\.99: npm install --save-dev @ai-sdk\/mcp@2\.0\.99$/,
    );
    // Any other failure is not a missing package and passes through as it is.
    await expect(importLinePackage('langchain', () => Promise.reject(new TypeError('boom')))).rejects.toThrow(/^boom$/);
  });
});

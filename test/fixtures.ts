// Small hand-made records for the pure functions' tests (no SDK involved).
import type { CaseRecord, Environment, Observation, ResultFile } from '../probe/core/domain.ts';

export function caseRecord(id: string, observed: Partial<Observation> = {}, fields: Partial<CaseRecord> = {}): CaseRecord {
  return {
    id,
    client: 'v1',
    clientPackage: '@modelcontextprotocol/sdk@1.32.2',
    discovery: 'warm',
    transport: 'in-memory',
    fixture: { server: 'v1-low-level', answer: 'result', registration: 'wrapped' },
    shape: id.split('/').at(-1) ?? id,
    tool: { name: 't', inputSchema: { type: 'object' } },
    result: { content: [] },
    expected: { outcome: 'returned', isError: false },
    observed: { outcome: 'returned', content: [], serverSent: 'as-scenario', ...observed } as Observation,
    verdict: 'pass',
    mismatches: [],
    ...fields,
  };
}

export function resultFile(cases: CaseRecord[]): ResultFile {
  const passed = cases.filter((c) => c.verdict === 'pass').length;
  return {
    schemaVersion: 2,
    matrix: { name: 'audit', title: 't', source: 's' },
    environment: { node: 'v20', platform: 'linux', arch: 'x64', harness: 'mcp-sdk-probe@0.0.0', packages: {} },
    cases,
    summary: { passed, failed: cases.length - passed },
  };
}

/** A fixed environment block for golden files: nothing that differs between machines. */
export const FIXED_ENVIRONMENT: Environment = {
  node: 'v20.0.0',
  platform: 'linux',
  arch: 'x64',
  harness: 'mcp-sdk-probe@0.0.0',
  packages: { '@modelcontextprotocol/client': '2.4.0', '@modelcontextprotocol/sdk': '1.32.2', '@modelcontextprotocol/server': '2.4.0' },
  integrity: { '@modelcontextprotocol/sdk': 'sha512-AAAA' },
};

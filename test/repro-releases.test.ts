// --format repro for any release (issue 21): another registry release of a package beside the pinned one
// is an npm alias, a local build (tarball or folder) a `file:` dependency on a path in the folder that the
// README names by the build's version and integrity, on the client side and the server side. The package
// plans are pure; the registry installs of the same are test/releases/repro-install.test.ts.
import { describe, expect, it } from 'vitest';
import type { CaseRecord, Scenario } from '../probe/core/domain.ts';
import { InputError } from '../probe/core/errors.ts';
import type { ReleaseIdentity } from '../probe/core/release.ts';
import { reproBlock } from '../probe/render/markdown.ts';
import { dependencyPlan, renderRepro, renderReproFolder, type ReproInput } from '../probe/render/repro.ts';
import { auditMatrix } from '../scenarios/audit.ts';
import { extendedMatrix } from '../scenarios/extended/index.ts';
import { pinnedPart } from './helpers/pinned-run.ts';

const PACKAGES = { '@modelcontextprotocol/sdk': '1.32.2', '@modelcontextprotocol/client': '2.4.0', '@modelcontextprotocol/server': '2.4.0', zod: '4.6.7' };
const scenarioOf = (id: string): Scenario => [...auditMatrix.scenarios, ...extendedMatrix.scenarios].find((s) => s.id === id)!;

function input(id: string, clientPackage: string | undefined, extra: Partial<ReproInput> = {}): ReproInput {
  const scenario = scenarioOf(id);
  const record: CaseRecord = pinnedPart(auditMatrix).cases.find((c) => c.id === id) ?? { ...pinnedPart(auditMatrix).cases[0]!, id };
  return { scenario, record: clientPackage ? { ...record, clientPackage } : record, packages: PACKAGES, timeoutMs: 5000, ...extra };
}

const registry = (line: 'v1' | 'v2', version: string, side?: 'server'): ReleaseIdentity => ({
  ...(side && { side }),
  line,
  packageName: side ? (line === 'v1' ? '@modelcontextprotocol/sdk' : '@modelcontextprotocol/server') : line === 'v1' ? '@modelcontextprotocol/sdk' : '@modelcontextprotocol/client',
  version,
  label: version,
  source: 'registry',
  integrity: 'sha512-registry',
});

describe('the package plan of a repro', () => {
  it('pins the pinned releases by name', () => {
    expect(dependencyPlan(input('v1/warm/error-off-schema', undefined))).toEqual({
      dependencies: { '@modelcontextprotocol/sdk': '1.32.2', zod: '4.6.7' },
      roots: { sdkServer: '@modelcontextprotocol/sdk', sdkClient: '@modelcontextprotocol/sdk', client: '@modelcontextprotocol/client', server: '@modelcontextprotocol/server' },
      builds: [],
    });
  });

  it('aliases the v1 client under test where it meets the fixture server of the pinned SDK', () => {
    const release = registry('v1', '1.31.0');
    const one = input('v1/warm/error-off-schema', '@modelcontextprotocol/sdk@1.31.0', { clientRelease: release });
    expect(dependencyPlan(one).dependencies).toEqual({ '@modelcontextprotocol/sdk': '1.32.2', 'sdk-client': 'npm:@modelcontextprotocol/sdk@1.31.0', zod: '4.6.7' });
    const script = renderRepro(one)['repro.mjs']!;
    expect(script).toContain("await load('sdk-client/client/index.js', [\"Client\"]);");
    expect(script).toContain("await load('@modelcontextprotocol/sdk/server/index.js', [\"Server\"]);");
    expect(script).toContain("await load('@modelcontextprotocol/sdk/inMemory.js', [\"InMemoryTransport\"]);");
    // A registry version of the record's own label needs no identity to be pinned.
    expect(dependencyPlan(input('v1/warm/error-off-schema', '@modelcontextprotocol/sdk@1.31.0')).dependencies['sdk-client']).toBe('npm:@modelcontextprotocol/sdk@1.31.0');
  });

  it('pins another v2 client release by name: it meets no other release of its package', () => {
    expect(dependencyPlan(input('v2/warm/off-schema-success', '@modelcontextprotocol/client@2.3.0', { clientRelease: registry('v2', '2.3.0') })).dependencies).toEqual({
      '@modelcontextprotocol/client': '2.3.0',
      '@modelcontextprotocol/sdk': '1.32.2',
      zod: '4.6.7',
    });
  });

  it('aliases a server release under test where it meets the pinned v1 client (server side)', () => {
    const one = input('v1/warm/error-off-schema', undefined, { serverRelease: registry('v1', '1.23.1', 'server') });
    expect(dependencyPlan(one).dependencies).toEqual({ '@modelcontextprotocol/sdk': '1.32.2', 'sdk-server': 'npm:@modelcontextprotocol/sdk@1.23.1', zod: '4.6.7' });
    const script = renderRepro(one)['repro.mjs']!;
    expect(script).toContain("await load('sdk-server/server/index.js', [\"Server\"]);");
    expect(script).toContain("await load('@modelcontextprotocol/sdk/client/index.js', [\"Client\"]);");
    // Beside the v2 client, the SDK meets no other release: the server release keeps its name.
    expect(dependencyPlan(input('v2/warm/off-schema-success', undefined, { serverRelease: registry('v1', '1.23.1', 'server') })).dependencies['@modelcontextprotocol/sdk']).toBe('1.23.1');
    // A v2 server release for a createMcpHandler case.
    const handler = input('v2/warm/modern-era-string-off-schema', '@modelcontextprotocol/client@2.4.0', { serverRelease: registry('v2', '2.3.0', 'server') });
    expect(dependencyPlan(handler).dependencies).toEqual({ '@modelcontextprotocol/client': '2.4.0', '@modelcontextprotocol/server': '2.3.0' });
  });

  it('installs a local build from the path the README names, identified by version and integrity, never a path of this machine', () => {
    const tarball: ReleaseIdentity = { line: 'v1', packageName: '@modelcontextprotocol/sdk', version: '1.33.0-beta.1', label: '1.33.0-beta.1+local.0123abcd', source: 'tarball', integrity: 'sha512-BUILD' };
    const one = input('v1/warm/error-off-schema', '@modelcontextprotocol/sdk@1.33.0-beta.1+local.0123abcd', { clientRelease: tarball });
    const files = renderRepro(one);
    expect(JSON.parse(files['package.json']!).dependencies).toEqual({ '@modelcontextprotocol/sdk': '1.32.2', 'sdk-client': 'file:./build/sdk-client.tgz', zod: '4.6.7' });
    expect(files['README.md']).toContain('put its package tarball (`npm pack`) at `build/sdk-client.tgz`');
    expect(files['README.md']).toContain('The probe ran version `1.33.0-beta.1` (label `1.33.0-beta.1+local.0123abcd`, tarball integrity `sha512-BUILD`)');
    const folder: ReleaseIdentity = { ...tarball, line: 'v2', packageName: '@modelcontextprotocol/client', source: 'folder', integrity: null };
    const v2 = renderRepro(input('v2/warm/off-schema-success', '@modelcontextprotocol/client@1.33.0-beta.1+local.0123abcd', { clientRelease: folder }));
    expect(JSON.parse(v2['package.json']!).dependencies['@modelcontextprotocol/client']).toBe('file:./build/client');
    expect(v2['README.md']).toContain('its built package folder (with its own dependencies installed) at `build/client`, a copy or a symlink');
    expect(v2['README.md']).toContain('a folder: no integrity');
  });

  it('refuses a local build it cannot name, and two cases that need one package at two releases', () => {
    expect(() => dependencyPlan(input('v1/warm/error-off-schema', '@modelcontextprotocol/sdk@1.32.2+local.abc'))).toThrow(InputError);
    const a = input('v1/warm/error-off-schema', '@modelcontextprotocol/sdk@1.31.0');
    const b = input('v1/warm/conforming-success', '@modelcontextprotocol/sdk@1.30.0');
    expect(() => renderReproFolder([a, b])).toThrow(/the cases need sdk-client as both npm:@modelcontextprotocol\/sdk@1\.31\.0 and npm:@modelcontextprotocol\/sdk@1\.30\.0/);
  });
});

describe('a local build whose package.json version is hostile', () => {
  // A folder's version is whatever its package.json says (releases/cache.ts installedVersion): it reaches
  // the case record's clientPackage and, through it, the script's header comment. A line break there ended
  // the comment and ran the rest as code (found in review: `process.exit(1)` in the version made a fixed
  // client answer "reproduced"); U+2028 made the evidence's heredoc refuse the file, a stack trace.
  it.each([
    ['a line feed', '1.0.0-x\nprocess.exit(1)//'],
    ['a carriage return', '1.0.0-x\rprocess.exit(1)//'],
    ['U+2028', '1.0.0-x\u2028process.exit(1)//'],
  ])('with %s, it stays inside the comment', (_what, version) => {
    const label = `${version}+local.0123abcd`;
    const folder: ReleaseIdentity = { line: 'v1', packageName: '@modelcontextprotocol/sdk', version, label, source: 'folder', integrity: null };
    const files = renderRepro(input('v1/warm/error-off-schema', `@modelcontextprotocol/sdk@${label}`, { clientRelease: folder }));
    const script = files['repro.mjs']!;
    // Every line of the script that mentions the version is a comment; no JS line terminator is raw.
    for (const line of script.split(/\r\n|[\n\r\u2028\u2029]/).filter((l) => l.includes('process.exit(1)//'))) expect(line).toMatch(/^\/\/ /);
    // And the evidence block, which refuses raw controls, takes the files.
    expect(() => reproBlock(files)).not.toThrow();
  });
});

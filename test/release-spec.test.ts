// Version-range resolution against a fixed list of published versions: no network.
import { describe, expect, it } from 'vitest';
import { InputError } from '../probe/core/errors.ts';
import { nearestVersions, parseReleaseSpec, resolveRegistryQuery, type PublishedVersions } from '../probe/releases/spec.ts';
import { checkOneSpecPerLine, releaseRequests } from '../probe/releases/resolve.ts';
import { requestedSpecs } from '../probe/sweep/model.ts';

const published: PublishedVersions = {
  packageName: '@modelcontextprotocol/sdk',
  versions: ['1.9.0', '1.10.0', '1.10.1', '1.11.0', '1.11.3', '1.11.4', '1.12.0', '1.23.0-beta.0', '1.23.0', '1.32.2', '1.33.0-rc.1'],
  latest: '1.32.2',
};

function resolve(text: string, prerelease = false): string[] {
  const spec = parseReleaseSpec('--v1', text);
  if (spec.kind !== 'registry') throw new Error(`not a registry spec: ${spec.kind}`);
  return resolveRegistryQuery('--v1', spec, published, { prerelease });
}

describe('parseReleaseSpec', () => {
  it.each([
    ['1.33.0', 'registry'],
    ['latest', 'registry'],
    ['1.10.0..latest', 'registry'],
    ['^1.20', 'registry'],
    ['>=1.10 <1.20', 'registry'],
    ['./sdk.tgz', 'tarball'],
    ['/tmp/build/sdk-1.33.0.tgz', 'tarball'],
    ['sdk.tar.gz', 'tarball'],
    ['../typescript-sdk/packages/client', 'folder'],
    ['/abs/folder', 'folder'],
    ['~/sdk/packages/client', 'folder'],
    ['.', 'folder'],
  ])('%s is a %s spec', (text, kind) => {
    expect(parseReleaseSpec('--v1', text).kind).toBe(kind);
  });

  it.each([
    ['', /--v1 needs a version/],
    ['banana', /--v1 banana: not a version, a range/],
    ['1.10.0..banana', /'banana' is not a version/],
  ])('rejects %j', (text, message) => {
    expect(() => parseReleaseSpec('--v1', text)).toThrow(InputError);
    expect(() => parseReleaseSpec('--v1', text)).toThrow(message);
  });
});

describe('resolveRegistryQuery', () => {
  it.each([
    ['1.11.3', false, ['1.11.3']],
    ['latest', false, ['1.32.2']],
    ['1.11.3..1.12.0', false, ['1.11.3', '1.11.4', '1.12.0']],
    ['1.12.0..latest', false, ['1.12.0', '1.23.0', '1.32.2']],
    ['1.12.0..latest', true, ['1.12.0', '1.23.0-beta.0', '1.23.0', '1.32.2']],
    ['^1.11.0', false, ['1.11.0', '1.11.3', '1.11.4', '1.12.0', '1.23.0', '1.32.2']],
    ['>=1.10 <1.11', false, ['1.10.0', '1.10.1']],
    ['~1.11.0', false, ['1.11.0', '1.11.3', '1.11.4']],
    ['1.23.0-beta.0', false, ['1.23.0-beta.0']],
    ['>=1.32.2', true, ['1.32.2', '1.33.0-rc.1']],
    ['1.11.4..1.11.4', false, ['1.11.4']],
  ])('%s (prereleases %s) → %j', (text, prerelease, versions) => {
    expect(resolve(text, prerelease)).toEqual(versions);
  });

  it.each([
    ['1.11.2', /has no published release 1\.11\.2; nearest: 1\.10\.1, 1\.11\.0, 1\.11\.3, 1\.11\.4/],
    ['1.40.0', /has no published release 1\.40\.0; nearest: 1\.23\.0, 1\.32\.2$/],
    ['1.13.0..1.20.0', /has no published release in that range; nearest: 1\.11\.4, 1\.12\.0, 1\.23\.0, 1\.32\.2/],
    ['^2.0.0', /has no published release in that range/],
    ['1.12.0..1.10.0', /the range runs backwards \(1\.12\.0 is after 1\.10\.0\)/],
  ])('%s is an error naming the nearest versions', (text, message) => {
    expect(() => resolve(text)).toThrow(InputError);
    expect(() => resolve(text)).toThrow(message);
  });

  it('lists neighbours on both sides', () => {
    expect(nearestVersions('1.11.2', published.versions)).toEqual(['1.10.1', '1.11.0', '1.11.3', '1.11.4']);
  });
});

describe('several specs for one line (issue 21: a second --v1 used to replace the first)', () => {
  it('releaseRequests makes one request per spec, in line order, then the order typed', () => {
    expect(releaseRequests({ v2: ['2.4.0'], v1: ['1.20.0..1.22.0', './my-build.tgz'] })).toEqual([
      { line: 'v1', flag: '--v1', text: '1.20.0..1.22.0' },
      { line: 'v1', flag: '--v1', text: './my-build.tgz' },
      { line: 'v2', flag: '--v2', text: '2.4.0' },
    ]);
    expect(releaseRequests({ v1: '1.20.0' })).toEqual([{ line: 'v1', flag: '--v1', text: '1.20.0' }]);
  });

  it('checkOneSpecPerLine names both specs of a line given twice, and lets one per line through', () => {
    expect(() => checkOneSpecPerLine(releaseRequests({ v1: ['1.20.0'], v2: ['2.4.0'] }), 'why')).not.toThrow();
    expect(() => checkOneSpecPerLine(releaseRequests({ v1: ['1.20.0', './b.tgz'] }), 'one per line')).toThrow(new InputError('--v1 1.20.0 and --v1 ./b.tgz: one per line'));
  });

  it.each<[string | string[] | null | undefined, string[]]>([
    [null, []],
    [undefined, []],
    ['1.20.0', ['1.20.0']],
    [['1.20.0..1.22.0', './b.tgz'], ['1.20.0..1.22.0', './b.tgz']],
  ])('requestedSpecs(%j) lists %j', (asked, specs) => {
    expect(requestedSpecs(asked)).toEqual(specs);
  });
});

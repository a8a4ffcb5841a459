// Where the pinned clients' integrity comes from (issue 21): the project's package-lock.json in a checkout;
// in an installed package (no lockfile of its own), the hidden lockfile npm writes into the node_modules
// that holds the client; neither, unknown (null), which the gates never count as a change.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pinnedRelease } from '../probe/releases/resolve.ts';

const SDK = '@modelcontextprotocol/sdk';
let base: string | undefined;
afterEach(() => {
  if (base) rmSync(base, { recursive: true, force: true });
  base = undefined;
});

/** A consumer project with the harness installed in node_modules/mcp-sdk-probe and the SDK beside it. */
function consumer(files: { projectLock?: string; hiddenLock?: string }): string {
  base = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-pinned-'));
  const harness = join(base, 'node_modules', 'mcp-sdk-probe');
  mkdirSync(harness, { recursive: true });
  writeFileSync(join(harness, 'package.json'), JSON.stringify({ name: 'mcp-sdk-probe', version: '0.1.0' }));
  mkdirSync(join(base, 'node_modules', SDK), { recursive: true });
  writeFileSync(join(base, 'node_modules', SDK, 'package.json'), JSON.stringify({ name: SDK, version: '1.32.2' }));
  if (files.projectLock) writeFileSync(join(harness, 'package-lock.json'), files.projectLock);
  if (files.hiddenLock) writeFileSync(join(base, 'node_modules', '.package-lock.json'), files.hiddenLock);
  return harness;
}

const lock = (path: string, integrity: string) => JSON.stringify({ lockfileVersion: 3, packages: { [path]: { version: '1.32.2', integrity } } });

describe('pinnedRelease: the integrity of the pinned client', () => {
  it('in an installed package: read from npm\'s hidden lockfile of the node_modules holding the client', () => {
    const root = consumer({ hiddenLock: lock(`node_modules/${SDK}`, 'sha512-hidden') });
    expect(pinnedRelease('v1', root)).toMatchObject({ packageName: SDK, version: '1.32.2', integrity: 'sha512-hidden' });
  });

  it('a lockfile of the project itself wins (the checkout)', () => {
    const root = consumer({ projectLock: lock(`node_modules/${SDK}`, 'sha512-project'), hiddenLock: lock(`node_modules/${SDK}`, 'sha512-hidden') });
    expect(pinnedRelease('v1', root).integrity).toBe('sha512-project');
  });

  it('no lockfile anywhere: unknown (null)', () => {
    expect(pinnedRelease('v1', consumer({})).integrity).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { selectScenarios } from '../probe/core/select.ts';
import { auditMatrix } from '../scenarios/audit.ts';

const ids = (patterns: string[]) => selectScenarios(auditMatrix.scenarios, patterns).map((s) => s.id);

describe('selectScenarios (--case)', () => {
  it.each([
    [[], 13],
    [['v2/*'], 6],
    [['v1/*'], 7],
    [['*/cold'], 1],
    [['v1/warm/*'], 6],
    [['**/error-*'], 7],
    [['off-schema'], 5],
    [['v1/cold/error-off-schema'], 1],
    [['v2/*', 'cold'], 7],
    [['v2/*', 'v2/warm/*'], 6],
    [['v3/*'], 0],
    [['warm/conforming'], 2],
  ])('%j selects %i cases', (patterns, count) => {
    expect(ids(patterns)).toHaveLength(count);
  });

  it('keeps the matrix order', () => {
    expect(ids(['cold', 'v1/warm/conforming-success'])).toEqual(['v1/warm/conforming-success', 'v1/cold/error-off-schema']);
  });
});

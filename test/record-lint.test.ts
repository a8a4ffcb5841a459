// The rule findings per shape, collected as cases finish in any order (engine/record.ts
// shapeFindingsCollector), against the rule read straight off the scenario order: per shape, the first
// scenario whose checks finished, or else the first whose did not; shapes in the order they first come.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../probe/core/domain.ts';
import { checksNotFinished } from '../probe/core/lint.ts';
import { shapeFindingsCollector } from '../probe/engine/record.ts';

/** The rule, one scenario after another (what the result held before cases were collected as they finished). */
function inScenarioOrder(shapes: readonly string[], findings: readonly (Finding[] | null)[]): Record<string, Finding[]> {
  const lint: Record<string, Finding[]> = {};
  for (const [i, shape] of shapes.entries()) {
    const found = findings[i];
    const unfinished = lint[shape]?.[0]?.rule === 'checks-not-finished';
    if (found && (!(shape in lint) || (unfinished && found[0]?.rule !== 'checks-not-finished'))) lint[shape] = found;
  }
  return lint;
}

const finding = (n: number): Finding => ({ rule: 'structured-content-without-schema', level: 'warning', message: `finding ${n}`, source: 'test' }) as Finding;

describe('rule findings per shape, collected as cases finish', () => {
  it('equal the scenario-order rule, whatever order the cases finish in', () => {
    const cell = fc.record({
      shape: fc.constantFrom('a', 'b', 'c', 'd'),
      // null: no result given; unfinished: the thread was stopped; else finished with 0-2 findings.
      found: fc.oneof(fc.constant(null), fc.constant('unfinished' as const), fc.nat({ max: 2 })),
    });
    fc.assert(
      fc.property(fc.array(cell, { maxLength: 30 }).chain((cells) => fc.tuple(fc.constant(cells), fc.shuffledSubarray([...cells.keys()], { minLength: cells.length, maxLength: cells.length }))), ([cells, finishOrder]) => {
        const findings = cells.map(({ found }, i) => (found === null ? null : found === 'unfinished' ? checksNotFinished() : Array.from({ length: found }, (_, k) => finding(i * 10 + k))));
        const collector = shapeFindingsCollector();
        for (const i of finishOrder) collector.add(i, cells[i]!.shape, findings[i]!);
        const collected = collector.result();
        const expected = inScenarioOrder(cells.map((c) => c.shape), findings);
        // Same findings, and the same key order (the result file's bytes).
        expect(JSON.stringify(collected)).toBe(JSON.stringify(expected));
      }),
    );
  });
});

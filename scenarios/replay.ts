// A captured tool result replayed through the fixture server to every client line and discovery mode.
import { SDK_LINES, type Capture, type Matrix } from '../probe/core/domain.ts';
import { defineCase, defineMatrix } from '../probe/core/define.ts';
import { parseExpectation, type ExpectRule } from '../probe/core/expect-spec.ts';
import { caseMatcher } from '../probe/core/select.ts';

export function replayMatrix(capture: Capture, label: string, rules: readonly ExpectRule[]): Matrix {
  const shape = { id: capture.shape, title: label, result: capture.result };
  const scenarios = SDK_LINES.flatMap((client) =>
    (['warm', 'cold'] as const).map((discovery) => {
      const id = `${client}/${discovery}/${capture.shape}`;
      // Later --expect rules win for the cases they match.
      const rule = rules.filter((r) => r.pattern === undefined || caseMatcher(r.pattern)(id)).at(-1);
      const expected = rule ? parseExpectation(rule.word, capture.result, `--expect ${rule.pattern ? `${rule.pattern}=` : ''}${rule.word}`) : null;
      return defineCase({ client, discovery, shape, tool: capture.tool, expected });
    }),
  );
  return defineMatrix({ name: 'replay', title: `replay of ${label}`, source: `${label} (a captured tools/list tool and tools/call result)`, scenarios });
}

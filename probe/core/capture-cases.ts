// A capture (a tool and the result a real server sent for it) as cases: every client line in each of its
// discovery modes. The one conversion `replay FILE` and `--scenarios DIR` (capture files beside scenario
// files, issue 21) both use, so a capture is the same cases wherever it runs.
import { CLIENT_LINES, type Capture, type ClientLine, type Discovery, type Scenario } from './domain.ts';
import { defineCase } from './define.ts';
import { parseExpectation, type ExpectRule } from './expect-spec.ts';
import { caseMatcher } from './select.ts';

/**
 * How a replay calls each line: the SDK clients listed and unlisted, the AI SDK's own client both ways and
 * its converted tools (server schemas, and the application's schemas from the tool's own), LangChain's
 * tool as an agent invokes it.
 */
export const REPLAY_MODES = {
  v1: ['warm', 'cold'],
  v2: ['warm', 'cold'],
  'ai-sdk': ['warm', 'cold', 'tools-automatic', 'tools-with-schemas'],
  langchain: ['load-tools'],
} as const satisfies Record<ClientLine, readonly Discovery[]>;

/**
 * The capture's cases on `lines`, titled `label`; each case expects what the last `--expect` rule matching
 * its id says (nothing: it only reports). The tool is called with the capture's own arguments, when it has them.
 */
export function captureCases(capture: Capture, label: string, rules: readonly ExpectRule[], lines: readonly ClientLine[] = CLIENT_LINES): Scenario[] {
  const shape = { id: capture.shape, title: label, result: capture.result };
  return lines.flatMap((client) =>
    REPLAY_MODES[client].map((discovery) => {
      const id = `${client}/${discovery}/${capture.shape}`;
      // Later --expect rules win for the cases they match.
      const rule = rules.filter((r) => r.pattern === undefined || caseMatcher(r.pattern)(id)).at(-1);
      const expected = rule ? parseExpectation(rule.word, capture.result, `--expect ${rule.pattern ? `${rule.pattern}=` : ''}${rule.word}`) : null;
      return defineCase({ client, discovery, shape, tool: capture.tool, expected, ...(capture.arguments !== undefined && { arguments: capture.arguments }) });
    }),
  );
}

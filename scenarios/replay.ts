// A captured tool result replayed through the fixture server to every client line and its discovery modes.
import { CLIENT_LINES, type Capture, type ClientLine, type Discovery, type Matrix } from '../probe/core/domain.ts';
import { defineCase, defineMatrix } from '../probe/core/define.ts';
import { parseExpectation, type ExpectRule } from '../probe/core/expect-spec.ts';
import { caseMatcher } from '../probe/core/select.ts';

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

export function replayMatrix(capture: Capture, label: string, rules: readonly ExpectRule[], lines: readonly ClientLine[] = CLIENT_LINES): Matrix {
  const shape = { id: capture.shape, title: label, result: capture.result };
  const scenarios = lines.flatMap((client) =>
    REPLAY_MODES[client].map((discovery) => {
      const id = `${client}/${discovery}/${capture.shape}`;
      // Later --expect rules win for the cases they match.
      const rule = rules.filter((r) => r.pattern === undefined || caseMatcher(r.pattern)(id)).at(-1);
      const expected = rule ? parseExpectation(rule.word, capture.result, `--expect ${rule.pattern ? `${rule.pattern}=` : ''}${rule.word}`) : null;
      return defineCase({ client, discovery, shape, tool: capture.tool, expected, ...(capture.arguments !== undefined && { arguments: capture.arguments }) });
    }),
  );
  return defineMatrix({ name: 'replay', title: `replay of ${label}`, source: `${label} (a captured tools/list tool and tools/call result)`, scenarios });
}

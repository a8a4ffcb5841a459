// The rule checks are statements about the result itself, a JSON value: a property counts only when the
// result has it as its own (issue 20: an inherited name such as `toString` must not satisfy `required`).
import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../probe/core/domain.ts';
import { lintResult } from '../probe/core/lint.ts';

const toolRequiring = (names: string[]): ToolDefinition => ({
  name: 'probe_value',
  inputSchema: { type: 'object' },
  outputSchema: { type: 'object', required: names },
});
const conformance = (tool: ToolDefinition, structuredContent: Record<string, unknown>) =>
  lintResult(tool, { content: [], structuredContent: structuredContent as never }).find((f) => f.rule === 'output-schema-conformance')?.level;

describe('lintResult: own properties only', () => {
  it.each(['toString', 'constructor', 'hasOwnProperty', '__proto__', 'valueOf'])('required %s is missing from {}', (name) => {
    expect(conformance(toolRequiring([name]), {})).toBe('error');
  });
  it('an own property of that name conforms', () => {
    expect(conformance(toolRequiring(['toString']), { toString: 1 })).toBe('info');
    expect(conformance(toolRequiring(['__proto__']), JSON.parse('{"__proto__": {}}'))).toBe('info');
  });
});

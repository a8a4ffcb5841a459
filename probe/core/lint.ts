// What the protocol and common rules say about a result itself, whatever any client does with it.
// Each finding names its rule and the source that makes it. Pure: no SDK involved.
import { Ajv, type ValidateFunction } from 'ajv';
import type { Finding, ToolDefinition, ToolResult } from './domain.ts';

const SPEC_OUTPUT =
  'MCP specification 2026-07-28, Tools › Output Schema: when a tool declares an outputSchema, servers MUST provide structured results that conform to it';
const SPEC_ERROR =
  'MCP specification 2026-07-28, Tools › Error Handling: isError: true marks a tool execution error; MCP does not forbid structuredContent on it';
const MCPDESC =
  'MCP Description 0.9.0 rule mcpdesc.tool.example.error-result (https://mcpdesc.org/docs/rules/0.9.0-rc.3/mcpdesc/tool-example-error-result/): an execution-error result sets isError true and carries no structuredContent';
const GUIDANCE = 'Tool-design guidance on failure paths (isError results, SEP-1303): error text should say what went wrong and what to try next';

const HARNESS_RULE = 'mcp-sdk-probe: the rule checks of a result run in its case\'s thread, under the case\'s deadline';

export const LINT_RULES = {
  'checks-not-finished': HARNESS_RULE,
  'output-schema-conformance': SPEC_OUTPUT,
  'output-schema-missing-structured-content': SPEC_OUTPUT,
  'output-schema-invalid': SPEC_OUTPUT,
  'error-result-structured-content-mcp': SPEC_ERROR,
  'error-result-structured-content-mcpdesc': MCPDESC,
  'error-result-empty-text': GUIDANCE,
} as const;
export type LintRule = keyof typeof LINT_RULES;

function finding(rule: LintRule, level: Finding['level'], message: string): Finding {
  return { rule, level, message, source: LINT_RULES[rule] };
}

// One validator instance and one compilation per distinct schema: building Ajv instances is costly, and
// a matrix lints many results against the same few schemas.
let ajv: Ajv | undefined;
const compiled = new Map<string, { validate: ValidateFunction } | { error: string }>();

function compile(schema: unknown): { validate: ValidateFunction } | { error: string } {
  const key = JSON.stringify(schema);
  const known = compiled.get(key);
  if (known) return known;
  let outcome: { validate: ValidateFunction } | { error: string };
  try {
    // strict: false accepts the keywords real tool schemas carry (titles, examples, vendor keys);
    // addUsedSchema: false keeps schemas with the same $id from colliding in the shared instance.
    // ownProperties: a JSON value's properties are its own; without it ajv's `required` and
    // `dependencies` checks read `data[name] !== undefined`, so `required: ['toString']` is met by `{}`
    // through Object.prototype (issue 20). The lint states what the result is, not what a client accepts.
    ajv ??= new Ajv({ strict: false, allErrors: true, addUsedSchema: false, ownProperties: true });
    outcome = { validate: ajv.compile(schema as object) };
  } catch (error) {
    outcome = { error: (error as Error).message };
  }
  compiled.set(key, outcome);
  return outcome;
}

/**
 * What the lint says when its checks could not finish: the case's thread was stopped first (a schema
 * pattern that backtracks catastrophically blocks the validator just as it blocks a client's).
 */
export function checksNotFinished(): Finding[] {
  return [finding('checks-not-finished', 'warning', "the rule checks of this result did not finish: its case's thread was stopped at the deadline")];
}

export function lintResult(tool: ToolDefinition, result: ToolResult): Finding[] {
  const findings: Finding[] = [];
  const isError = result.isError === true;
  const hasStructured = Object.hasOwn(result, 'structuredContent');

  if (tool.outputSchema !== undefined) {
    const schema = compile(tool.outputSchema);
    if ('error' in schema) {
      findings.push(finding('output-schema-invalid', 'error', `the tool's outputSchema does not compile: ${schema.error}`));
    } else if (hasStructured) {
      // The MUST is the server's and has no isError exemption: a client that skips validation on error
      // results does not make an off-schema error result conform (the source audit's interpretation).
      if (schema.validate(result.structuredContent)) {
        findings.push(finding('output-schema-conformance', 'info', 'structuredContent conforms to the declared outputSchema'));
      } else {
        const why = (schema.validate.errors ?? []).map((e) => `${e.instancePath || 'at the root'} ${e.message}`).join('; ');
        findings.push(
          finding('output-schema-conformance', 'error', `structuredContent does not conform to the declared outputSchema (${why})${isError ? ', although isError is set' : ''}`),
        );
      }
    } else if (!isError) {
      findings.push(finding('output-schema-missing-structured-content', 'error', 'the tool declares an outputSchema but this success result has no structuredContent'));
    }
  }

  if (isError && hasStructured) {
    findings.push(finding('error-result-structured-content-mcp', 'info', 'an error result carries structuredContent; MCP allows this'));
    findings.push(finding('error-result-structured-content-mcpdesc', 'warning', 'an error result carries structuredContent; the MCP Description rule forbids it'));
  }
  if (isError) {
    const content = Array.isArray(result.content) ? result.content : [];
    const text = content
      .map((block) => (block && typeof block === 'object' && !Array.isArray(block) && block.type === 'text' && typeof block.text === 'string' ? block.text : ''))
      .join('')
      .trim();
    if (text === '') findings.push(finding('error-result-empty-text', 'warning', 'the error result has no text telling the model what went wrong'));
  }
  return findings;
}

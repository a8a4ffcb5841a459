// The short way users state expectations, on the command line (--expect) and in scenario files:
//   returned            the client hands the result back as the server sent it
//   rejected            callTool throws (any error)
//   rejected:-32602     callTool throws an error with this code (a number, or an SDK error name)
import { InputError } from './errors.ts';
import { ExpectedSchema, type Expected, type ToolResult } from './domain.ts';
import { returnsAsSent } from './define.ts';

export function parseExpectation(text: string, result: ToolResult, where: string): Expected {
  const value = text.trim();
  if (value === 'returned') return returnsAsSent(result);
  if (value === 'rejected') return { outcome: 'rejected' };
  const match = /^rejected:(.+)$/.exec(value);
  if (match) {
    const code = match[1]!.trim();
    return ExpectedSchema.parse({ outcome: 'rejected', code: /^-?\d+$/.test(code) ? Number(code) : code });
  }
  throw new InputError(`${where}: '${text}' is not an expectation (returned, rejected or rejected:<code>)`);
}

export interface ExpectRule {
  /** A glob over case ids (`v2/*`), or undefined for every case. */
  readonly pattern: string | undefined;
  readonly word: string;
}

/** `--expect [<case glob>=]<expectation>`; several may be given, later ones win for the cases they match. */
export function parseExpectRule(text: string): ExpectRule {
  const at = text.indexOf('=');
  if (at === -1) return { pattern: undefined, word: text };
  const pattern = text.slice(0, at).trim();
  if (pattern === '') throw new InputError(`--expect ${text}: nothing before '=' (write <case glob>=<expectation>, e.g. v2/*=returned)`);
  return { pattern, word: text.slice(at + 1) };
}

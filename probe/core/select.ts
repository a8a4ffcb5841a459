// Which cases a run selects: `--case` globs over case ids, `--clients` client lines. Pure.
import picomatch from 'picomatch';
import { CLIENT_LINES, ClientLineSchema, type ClientLine, type Scenario } from './domain.ts';
import { InputError } from './errors.ts';

/**
 * `--case` patterns. A glob is matched against the case id and each of its leading segments, like a path:
 * `v2/*` selects every v2 case, `*\/cold` every cold one, `**\/error-*` every error shape. A pattern with
 * no glob characters matches any id containing it (`off-schema`). A case runs when any pattern selects it.
 */
export function caseMatcher(pattern: string): (id: string) => boolean {
  if (!picomatch.scan(pattern).isGlob) return (id) => id.includes(pattern);
  const isMatch = picomatch(pattern);
  return (id) => {
    const segments = id.split('/');
    return segments.some((_, i) => isMatch(segments.slice(0, i + 1).join('/')));
  };
}

/** An empty `--case` pattern names nothing: an input error, said before any other input is read. `flag`: how the caller names the patterns. */
export function checkCasePatternsGiven(patterns: readonly string[], flag = '--case'): void {
  for (const pattern of patterns) {
    if (pattern.trim() === '') throw new InputError(`${flag} '${pattern}': an empty pattern; name cases by id, glob or word`);
  }
}

/**
 * Every `--case` pattern must select a case among `ids` (`of` says whose: "matrix audit", "this replay"):
 * a typo in one of several would otherwise narrow the run silently (issue 10).
 */
export function checkCasePatternsMatch(patterns: readonly string[], ids: readonly string[], of: string, flag = '--case'): void {
  checkCasePatternsGiven(patterns, flag);
  for (const pattern of patterns) {
    if (!ids.some(caseMatcher(pattern))) throw new InputError(`${flag} ${pattern} matches no case of ${of}; ids look like ${ids[0]}`);
  }
}

export function selectScenarios(scenarios: readonly Scenario[], patterns: readonly string[]): Scenario[] {
  if (patterns.length === 0) return [...scenarios];
  const matchers = patterns.map(caseMatcher);
  return scenarios.filter((scenario) => matchers.some((matches) => matches(scenario.id)));
}

/** `--clients v1,ai-sdk` (or a list): known lines, each once, in the order given. */
export function parseClientLines(given: string | readonly string[], what: string): ClientLine[] {
  const names = typeof given === 'string' ? given.split(',').map((name) => name.trim()) : [...given];
  const lines: ClientLine[] = [];
  for (const name of names) {
    const parsed = ClientLineSchema.safeParse(name);
    if (!parsed.success) throw new InputError(`${what}: ${JSON.stringify(name)} is not a client line; expected one of ${CLIENT_LINES.join(', ')}`);
    if (lines.includes(parsed.data)) throw new InputError(`${what}: ${name} is named twice`);
    lines.push(parsed.data);
  }
  if (lines.length === 0) throw new InputError(`${what}: names no client line; expected some of ${CLIENT_LINES.join(', ')}`);
  return lines;
}

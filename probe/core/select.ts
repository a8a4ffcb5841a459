// Which cases a run selects: `--case` globs over case ids. Pure.
import picomatch from 'picomatch';
import type { Scenario } from './domain.ts';

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

export function selectScenarios(scenarios: readonly Scenario[], patterns: readonly string[]): Scenario[] {
  if (patterns.length === 0) return [...scenarios];
  const matchers = patterns.map(caseMatcher);
  return scenarios.filter((scenario) => matchers.some((matches) => matches(scenario.id)));
}

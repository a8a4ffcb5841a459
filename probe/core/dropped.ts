// Which own keys a value lost between two steps (the scenario, the wire, what the client handed back).
// Pure. Own keys only (Object.keys and Object.hasOwn, never `in`): an inherited name is not a key of a
// JSON value, and an own `__proto__` is one (issue 20).
export function droppedKeys(before: unknown, after: unknown, path: readonly string[] = []): string[][] {
  if (!isContainer(before) || !isContainer(after) || Array.isArray(before) !== Array.isArray(after)) return [];
  const dropped: string[][] = [];
  for (const key of Object.keys(before)) {
    const at = [...path, key];
    if (!Object.hasOwn(after, key)) dropped.push(at);
    else dropped.push(...droppedKeys((before as Record<string, unknown>)[key], (after as Record<string, unknown>)[key], at));
  }
  return dropped;
}

/**
 * zod's output `parsed` of `given`, or a copy of `given` when the output lacks an own key `given` had (zod 4
 * leaves own `__proto__` keys out of what it parses: issue 20). Otherwise zod's output, in its key order
 * (schema keys first), which reports show: a value that loses no key reads exactly as it always did.
 * Only for schemas whose output is their input but for such keys (no defaults, no transforms).
 */
export function unlessDropped<T>(given: unknown, parsed: T): T {
  return droppedKeys(given, parsed).length === 0 ? parsed : (structuredClone(given) as T);
}

function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

/** `value` less the keys at `paths` (a copy; `delete` removes an own `__proto__` key, never the prototype). */
export function withoutKeys(value: unknown, paths: readonly (readonly string[])[]): unknown {
  const copy = structuredClone(value);
  for (const path of paths) {
    let at: unknown = copy;
    for (const key of path.slice(0, -1)) at = isContainer(at) ? (at as Record<string, unknown>)[key] : undefined;
    if (isContainer(at)) delete (at as Record<string, unknown>)[path[path.length - 1]!];
  }
  return copy;
}

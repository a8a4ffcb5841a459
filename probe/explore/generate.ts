// fast-check arbitraries over the model (model.ts): a server and a sequence of steps. Every choice is
// listed so that fast-check's own shrinking moves towards the simplest reading: fewer tools and steps,
// the plain listing, a result conforming to the current schema, no isError, no definition.
import fc from 'fast-check';
import type { Conformance, ExploreTool, PropertyName, SchemaShape, Sequence, ServerSpec, Step } from './model.ts';
import { PROPERTIES } from './model.ts';

/** Tool names, by position in the listing. */
const NAMES = ['alpha', 'beta', 'gamma'] as const;
const ALL_PROPERTIES = Object.keys(PROPERTIES) as PropertyName[];
const MAX_TOOLS = 3;

const shape: fc.Arbitrary<SchemaShape> = fc
  .record({ properties: fc.subarray(ALL_PROPERTIES, { minLength: 1 }), required: fc.subarray(ALL_PROPERTIES), closed: fc.boolean() })
  .map(({ properties, required, closed }) => ({ properties, required: required.filter((p) => properties.includes(p)), closed }));

/** A tool's schema versions, and whether it takes the name of the tool before it (a second tool of one name). */
const tool = fc.record({ versions: fc.array(shape, { minLength: 1, maxLength: 3 }), sameNameAsPrevious: fc.boolean() });

const server: fc.Arbitrary<ServerSpec> = fc
  .record({ pageSize: fc.integer({ min: 1, max: MAX_TOOLS }), tools: fc.array(tool, { minLength: 1, maxLength: MAX_TOOLS }) })
  .map(({ pageSize, tools }) => {
    // Names by position, so shrinking leaves distinct names unless a duplicate is what the finding needs.
    const named: ExploreTool[] = [];
    for (const [i, t] of tools.entries()) named.push({ name: i > 0 && t.sameNameAsPrevious ? named[i - 1]!.name : NAMES[i]!, versions: t.versions });
    return { pageSize, tools: named };
  });

const toolRef = fc.nat(MAX_TOOLS - 1);

const call: fc.Arbitrary<Step> = fc
  .record({
    tool: toolRef,
    conforms: fc.constantFrom<Conformance>('current', 'earlier', 'none'),
    // Structured content is the usual case; its absence is the variation.
    structured: fc.boolean().map((b) => !b),
    isError: fc.boolean(),
    definition: fc.boolean(),
  })
  .map(({ definition, ...rest }) => ({ do: 'call', ...rest, ...(definition && { definition: true as const }) }));

const list: fc.Arbitrary<Step> = fc
  .record({ how: fc.constantFrom('plain' as const, 'all-pages' as const, 'page' as const), page: fc.nat(MAX_TOOLS - 1), fail: fc.boolean() })
  .map(({ how, page, fail }) => ({ do: 'list', how, ...(how === 'page' && { page }), ...(fail && { fail: true as const }) }));

const change: fc.Arbitrary<Step> = fc.record({ tool: toolRef, notify: fc.boolean() }).map((c) => ({ do: 'change', ...c }));

const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: list, weight: 3 },
  { arbitrary: call, weight: 3 },
  { arbitrary: change, weight: 2 },
  { arbitrary: fc.constant<Step>({ do: 'reconnect' }), weight: 1 },
);

export const DEFAULT_MAX_STEPS = 6;

export function sequenceArbitrary(maxSteps = DEFAULT_MAX_STEPS): fc.Arbitrary<Sequence> {
  return fc.record({ server, steps: fc.array(step, { minLength: 1, maxLength: maxSteps }) });
}

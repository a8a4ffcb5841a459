// Family "discovery": what the client knows about the tool when it calls it.
import { returnsAsSent } from '../../probe/core/define.ts';
import type { Expected, Scenario } from '../../probe/core/domain.ts';
import { auditShapes, auditTool, BOTH, family, rejected } from './shared.ts';

const discovery = family('discovery');
const shapes = Object.values(auditShapes);

/** The outputSchema a server switches to in the list_changed case: the off-schema object now conforms. */
const widenedTool = {
  ...auditTool,
  outputSchema: { type: 'object', properties: { error: { type: 'string' } }, required: ['error'], additionalProperties: false },
};

const DEFINITION_EXPECTED: Record<string, Expected> = {
  'off-schema-success': rejected(-32602, 'client-output-schema'),
  'success-without-structured': rejected(-32600, 'client-output-schema'),
};

const PAGED_EXPECTED: Record<string, Expected> = {
  'v1/warm': returnsAsSent(auditShapes.offSchemaSuccess.result),
  'v1/all-pages': rejected(-32602, 'client-output-schema'),
  'v1/one-page': rejected(-32602, 'client-output-schema'),
  'v2/warm': rejected(-32602, 'client-output-schema'),
  'v2/one-page': returnsAsSent(auditShapes.offSchemaSuccess.result),
};

export const discoveryCases: Scenario[] = [
  // Cold controls for every shape and both clients; the audit has v1/cold/error-off-schema already.
  ...BOTH.flatMap((client) =>
    shapes
      .filter((shape) => !(client === 'v1' && shape.id === 'error-off-schema'))
      .map((shape) =>
        discovery({
          client,
          discovery: 'cold',
          shape,
          tool: auditTool,
          question: `Without tools/list, does the ${client} client check "${shape.title}" at all?`,
          reference: 'Source audit, "Discovery changes the v1 control" (only v1 error-off-schema was run cold)',
          // Observed: neither client checks anything it has not listed; every shape comes back as sent.
          expected: returnsAsSent(shape.result),
        }),
      ),
  ),
  // v2's callTool(params, { toolDefinition }) validates against a definition the application supplies.
  ...shapes.map((shape) =>
    discovery({
      client: 'v2',
      discovery: 'definition',
      shape,
      tool: auditTool,
      question: `Does v2 callTool with a toolDefinition (no tools/list) treat "${shape.title}" as it does after tools/list?`,
      reference: '@modelcontextprotocol/client 2.4.0 Client.callTool options.toolDefinition',
      // Observed: exactly the audit's v2 column (after tools/list).
      expected: DEFINITION_EXPECTED[shape.id] ?? returnsAsSent(shape.result),
    }),
  ),
  // Pagination: the tool under test is on the second page of tools/list.
  ...(
    [
      ['v1', 'warm'],
      ['v1', 'all-pages'],
      ['v1', 'one-page'],
      ['v2', 'warm'],
      ['v2', 'one-page'],
    ] as const
  ).map(([client, mode]) =>
    discovery({
      // Observed: v1's plain listTools() fetches page 1 only, so the page-2 tool goes unchecked; walking
      // every page, or fetching page 2 directly, caches its validator. v2's listTools() aggregates every
      // page; its per-page path (a cursor) does not write the cache, so the tool goes unchecked.
      expected: PAGED_EXPECTED[`${client}/${mode}`]!,
      client,
      discovery: mode,
      shape: { id: 'paged-off-schema-success', title: 'Off-schema success of a tool on the second tools/list page', result: auditShapes.offSchemaSuccess.result },
      server: { kind: 'respond', result: auditShapes.offSchemaSuccess.result, paginate: true },
      tool: auditTool,
      question:
        mode === 'warm'
          ? `Does a plain listTools() (as an application calls it) leave the ${client} client knowing a tool listed on page 2?`
          : mode === 'all-pages'
            ? `After walking every tools/list page with cursors, does the ${client} client still validate the page-2 tool?`
            : `After listing only the tool's page with its cursor, does the ${client} client validate it?`,
      reference: 'MCP specification, Pagination (tools/list cursors); v2 Client.listTools docs: "the per-page path ... does not write the response cache"',
    }),
  ),
  // list_changed between discovery and call: the schema that was listed no longer applies.
  ...BOTH.map((client) =>
    discovery({
      client,
      discovery: 'changed',
      shape: { id: 'schema-widened-off-schema-success', title: 'Success that conforms only to the schema announced by list_changed', result: auditShapes.offSchemaSuccess.result },
      server: { kind: 'respond', result: auditShapes.offSchemaSuccess.result, changeTo: widenedTool },
      tool: auditTool,
      question: `After notifications/tools/list_changed widens the outputSchema, does the ${client} client validate against the old or the new schema?`,
      reference: 'MCP specification, Tools › List Changed Notification',
      // Observed: v1 keeps the validator it cached from the first listing and rejects a result the new
      // schema allows; v2 drops its cached listing on the notification and returns it.
      expected: client === 'v1' ? rejected(-32602, 'client-output-schema') : returnsAsSent(auditShapes.offSchemaSuccess.result),
    }),
  ),
];

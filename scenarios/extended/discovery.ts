// Family "discovery": what the client knows about the tool when it calls it.
import { returnsAsSent } from '../../probe/core/define.ts';
import type { SdkLine, Expected, Scenario, ToolDefinition } from '../../probe/core/domain.ts';
import { AUDIT_CELLS, auditShapes, auditTool, BOTH, cellParts, family, type AuditShapeId, type Cell } from './shared.ts';

const discovery = family('discovery');
const s = auditShapes;

/** The outputSchema a server switches to in the list_changed case: the off-schema object now conforms. */
const widenedTool: ToolDefinition = {
  ...auditTool,
  outputSchema: { type: 'object', properties: { error: { type: 'string' } }, required: ['error'], additionalProperties: false },
};

/** The cell is a case of the audit's own matrix (v1/cold/error-off-schema), so it is not run again here. */
const IN_AUDIT = 'in-audit';

/**
 * One row per audit shape. Columns: the tool never listed (cold), and v2 handed the definition by the
 * application through callTool(params, { toolDefinition }) instead of tools/list (v2 only).
 */
const UNLISTED: Record<AuditShapeId, { cold: Record<SdkLine, Expected | typeof IN_AUDIT>; definition: { v2: Expected } }> = {
  // Observed, cold: neither client checks anything it has not listed; every shape comes back as sent.
  // Observed, definition: exactly the audit's v2 column (after tools/list).
  'conforming-success': {
    cold: { v1: returnsAsSent(s.conformingSuccess.result), v2: returnsAsSent(s.conformingSuccess.result) },
    definition: { v2: AUDIT_CELLS['conforming-success'].v2 },
  },
  'off-schema-success': {
    cold: { v1: returnsAsSent(s.offSchemaSuccess.result), v2: returnsAsSent(s.offSchemaSuccess.result) },
    definition: { v2: { ...AUDIT_CELLS['off-schema-success'].v2, by: 'client-output-schema' } },
  },
  'success-without-structured': {
    cold: { v1: returnsAsSent(s.successWithoutStructured.result), v2: returnsAsSent(s.successWithoutStructured.result) },
    definition: { v2: { ...AUDIT_CELLS['success-without-structured'].v2, by: 'client-output-schema' } },
  },
  'error-text-only': {
    cold: { v1: returnsAsSent(s.errorTextOnly.result), v2: returnsAsSent(s.errorTextOnly.result) },
    definition: { v2: AUDIT_CELLS['error-text-only'].v2 },
  },
  'error-off-schema': {
    cold: { v1: IN_AUDIT, v2: returnsAsSent(s.errorOffSchema.result) },
    definition: { v2: AUDIT_CELLS['error-off-schema'].v2 },
  },
  'error-conforming': {
    cold: { v1: returnsAsSent(s.errorConforming.result), v2: returnsAsSent(s.errorConforming.result) },
    definition: { v2: AUDIT_CELLS['error-conforming'].v2 },
  },
};

// Pagination: the tool under test is on the second page of tools/list. One row per client/discovery cell;
// v2 has no all-pages cell. Observed: v1's plain listTools() fetches page 1 only, so the page-2 tool goes
// unchecked; walking every page, or fetching page 2 directly, caches its validator. v2's listTools()
// aggregates every page; its per-page path (a cursor) does not write the cache, so the tool goes unchecked.
type PagedCell = Extract<Cell, 'v1/warm' | 'v1/all-pages' | 'v1/one-page' | 'v2/warm' | 'v2/one-page'>;
const PAGED: Record<PagedCell, { question: string; expected: Expected }> = {
  'v1/warm': {
    question: 'Does a plain listTools() (as an application calls it) leave the v1 client knowing a tool listed on page 2?',
    expected: returnsAsSent(s.offSchemaSuccess.result),
  },
  'v1/all-pages': {
    question: 'After walking every tools/list page with cursors, does the v1 client still validate the page-2 tool?',
    expected: { ...AUDIT_CELLS['off-schema-success'].v1, by: 'client-output-schema' },
  },
  'v1/one-page': {
    question: "After listing only the tool's page with its cursor, does the v1 client validate it?",
    expected: { ...AUDIT_CELLS['off-schema-success'].v1, by: 'client-output-schema' },
  },
  'v2/warm': {
    question: 'Does a plain listTools() (as an application calls it) leave the v2 client knowing a tool listed on page 2?',
    expected: { ...AUDIT_CELLS['off-schema-success'].v2, by: 'client-output-schema' },
  },
  'v2/one-page': {
    question: "After listing only the tool's page with its cursor, does the v2 client validate it?",
    expected: returnsAsSent(s.offSchemaSuccess.result),
  },
};

// list_changed between discovery and call: the schema that was listed no longer applies.
// Observed: v1 keeps the validator it cached from the first listing and rejects a result the new schema
// allows (the audit's verdict under the old schema); v2 drops its cached listing on the notification and
// returns it.
const CHANGED: Record<SdkLine, Expected> = {
  v1: { ...AUDIT_CELLS['off-schema-success'].v1, by: 'client-output-schema' },
  v2: returnsAsSent(s.offSchemaSuccess.result),
};

const shapes = Object.values(auditShapes);

export const discoveryCases: Scenario[] = [
  // Cold controls for every shape and both clients; the audit has v1/cold/error-off-schema already.
  ...BOTH.flatMap((client) =>
    shapes.flatMap((shape) => {
      const expected = UNLISTED[shape.id].cold[client];
      if (expected === IN_AUDIT) return [];
      return [
        discovery({
          client,
          discovery: 'cold',
          shape,
          tool: auditTool,
          question: `Without tools/list, does the ${client} client check "${shape.title}" at all?`,
          reference: 'Source audit, "Discovery changes the v1 control" (only v1 error-off-schema was run cold)',
          expected,
        }),
      ];
    }),
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
      expected: UNLISTED[shape.id].definition.v2,
    }),
  ),
  ...Object.entries(PAGED).map(([cell, { question, expected }]) =>
    discovery({
      expected,
      ...cellParts(cell),
      shape: { id: 'paged-off-schema-success', title: 'Off-schema success of a tool on the second tools/list page', result: s.offSchemaSuccess.result },
      server: { kind: 'respond', result: s.offSchemaSuccess.result, paginate: true },
      tool: auditTool,
      question,
      reference: 'MCP specification, Pagination (tools/list cursors); v2 Client.listTools docs: "the per-page path ... does not write the response cache"',
    }),
  ),
  ...BOTH.map((client) =>
    discovery({
      client,
      discovery: 'changed',
      shape: { id: 'schema-widened-off-schema-success', title: 'Success that conforms only to the schema announced by list_changed', result: s.offSchemaSuccess.result },
      server: { kind: 'respond', result: s.offSchemaSuccess.result, changeTo: widenedTool },
      tool: auditTool,
      question: `After notifications/tools/list_changed widens the outputSchema, does the ${client} client validate against the old or the new schema?`,
      reference: 'MCP specification, Tools › List Changed Notification',
      expected: CHANGED[client],
    }),
  ),
];

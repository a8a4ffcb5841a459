// Family "transports": the audit's six shapes over stdio (the fixture in a child process) and Streamable
// HTTP (loopback, a port the OS picks), to see whether the transport changes any outcome.
import type { Scenario, TransportKind } from '../../probe/core/domain.ts';
import { AUDIT_CELLS, auditShapes, auditTool, BOTH, family, type AuditShapeId, type ClientCells } from './shared.ts';

const transports = family('transports');

type RemoteTransport = Extract<TransportKind, 'stdio' | 'http'>;

/** How each transport is named in a case's question, and the clause of the specification it follows. */
const TRANSPORTS: Record<RemoteTransport, { name: string; reference: string }> = {
  stdio: { name: 'stdio', reference: 'MCP specification, Transports › stdio' },
  http: { name: 'Streamable HTTP', reference: 'MCP specification, Transports › Streamable HTTP' },
};

/**
 * One row per audit shape, one cell per client; the same table holds for both transports. Each cell is
 * the audit's, which both transports were observed to reproduce cell for cell; and the result must be
 * seen leaving the server unchanged (sent), stdio's child process included.
 */
const OVER_A_TRANSPORT: Record<AuditShapeId, ClientCells> = {
  'conforming-success': {
    v1: { ...AUDIT_CELLS['conforming-success'].v1, sent: 'as-scenario' },
    v2: { ...AUDIT_CELLS['conforming-success'].v2, sent: 'as-scenario' },
  },
  'off-schema-success': {
    v1: { ...AUDIT_CELLS['off-schema-success'].v1, by: 'client-output-schema', sent: 'as-scenario' },
    v2: { ...AUDIT_CELLS['off-schema-success'].v2, by: 'client-output-schema', sent: 'as-scenario' },
  },
  'success-without-structured': {
    v1: { ...AUDIT_CELLS['success-without-structured'].v1, by: 'client-output-schema', sent: 'as-scenario' },
    v2: { ...AUDIT_CELLS['success-without-structured'].v2, by: 'client-output-schema', sent: 'as-scenario' },
  },
  'error-text-only': {
    v1: { ...AUDIT_CELLS['error-text-only'].v1, sent: 'as-scenario' },
    v2: { ...AUDIT_CELLS['error-text-only'].v2, sent: 'as-scenario' },
  },
  'error-off-schema': {
    v1: { ...AUDIT_CELLS['error-off-schema'].v1, by: 'client-output-schema', sent: 'as-scenario' },
    v2: { ...AUDIT_CELLS['error-off-schema'].v2, sent: 'as-scenario' },
  },
  'error-conforming': {
    v1: { ...AUDIT_CELLS['error-conforming'].v1, sent: 'as-scenario' },
    v2: { ...AUDIT_CELLS['error-conforming'].v2, sent: 'as-scenario' },
  },
};

export const transportCases: Scenario[] = (['stdio', 'http'] as const satisfies readonly RemoteTransport[]).flatMap((transport) =>
  Object.values(auditShapes).flatMap((shape) =>
    BOTH.map((client) =>
      transports({
        client,
        discovery: 'warm',
        transport,
        shape: { ...shape, id: `${transport}-${shape.id}` },
        tool: auditTool,
        question: `Over ${TRANSPORTS[transport].name}, does the ${client} client treat "${shape.title}" as it does in memory?`,
        reference: TRANSPORTS[transport].reference,
        expected: OVER_A_TRANSPORT[shape.id][client],
      }),
    ),
  ),
);

// Family "transports": the audit's six shapes over stdio (the fixture in a child process) and Streamable
// HTTP (loopback, a port the OS picks), to see whether the transport changes any outcome.
import { returnsAsSent } from '../../probe/core/define.ts';
import type { Expected, Scenario, TransportKind } from '../../probe/core/domain.ts';
import { auditShapes, auditTool, BOTH, family, rejected } from './shared.ts';

const transports = family('transports');

/**
 * The audit's table, which both transports were observed to reproduce cell for cell; and the result
 * must be seen leaving the server unchanged (sent), stdio's child process included.
 */
function auditCell(client: 'v1' | 'v2', shapeId: string, result: Parameters<typeof returnsAsSent>[0]): Expected {
  if (shapeId === 'off-schema-success') return rejected(-32602, 'client-output-schema', { sent: 'as-scenario' });
  if (shapeId === 'success-without-structured') return rejected(-32600, 'client-output-schema', { sent: 'as-scenario' });
  if (shapeId === 'error-off-schema' && client === 'v1') return rejected(-32602, 'client-output-schema', { sent: 'as-scenario' });
  return { ...returnsAsSent(result), sent: 'as-scenario' } as Expected;
}

export const transportCases: Scenario[] = (['stdio', 'http'] as const satisfies readonly TransportKind[]).flatMap((transport) =>
  Object.values(auditShapes).flatMap((shape) =>
    BOTH.map((client) =>
      transports({
        client,
        discovery: 'warm',
        transport,
        shape: { ...shape, id: `${transport}-${shape.id}` },
        tool: auditTool,
        question: `Over ${transport === 'stdio' ? 'stdio' : 'Streamable HTTP'}, does the ${client} client treat "${shape.title}" as it does in memory?`,
        reference: transport === 'stdio' ? 'MCP specification, Transports › stdio' : 'MCP specification, Transports › Streamable HTTP',
        expected: auditCell(client, shape.id, shape.result),
      }),
    ),
  ),
);

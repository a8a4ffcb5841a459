// Building blocks shared by the extended matrix's families.
import { defineCase, type CaseDefinition } from '../../probe/core/define.ts';
import { SdkLineSchema, DiscoverySchema, type SdkLine, type Discovery, type Expected, type RejectedBy, type Scenario } from '../../probe/core/domain.ts';

export { AUDIT_CELLS, auditShapes, auditTool, type AuditShapeId } from '../audit.ts';

export const text = (value: string) => [{ type: 'text', text: value }];

/** An extended case: a family, the question it answers and the spec clause or SDK issue it probes. */
export interface ExtendedCase extends Omit<CaseDefinition, 'family' | 'question' | 'reference'> {
  readonly question: string;
  readonly reference: string;
}

export function family(name: string) {
  return (definition: ExtendedCase): Scenario => defineCase({ ...definition, family: name });
}

export const BOTH: readonly SdkLine[] = ['v1', 'v2'];

/** One expectation per client line: a table row that leaves a client out does not compile. */
export type ClientCells = Record<SdkLine, Expected>;

/** Expectations, as the pinned SDKs were observed to behave (each verified by running the case). */
export const rejected = (code: number | string | null, by?: RejectedBy, extra: { name?: string; sent?: Expected['sent'] } = {}): Expected => ({
  outcome: 'rejected',
  ...(code !== null && { code }),
  ...(by && { by }),
  ...extra,
});

export type Cell = `${SdkLine}/${Discovery}`;

/** The client and discovery mode a cell name such as `v1/all-pages` stands for (checked, not cast). */
export function cellParts(cell: string): { client: SdkLine; discovery: Discovery } {
  const [client, discovery, ...rest] = cell.split('/');
  if (rest.length > 0) throw new Error(`${cell} is not a client/discovery cell`);
  return { client: SdkLineSchema.parse(client), discovery: DiscoverySchema.parse(discovery) };
}

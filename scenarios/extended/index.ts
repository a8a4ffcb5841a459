// The extended matrix: the cases the audit deliberately left out, by family.
import { defineMatrix } from '../../probe/core/define.ts';
import { discoveryCases } from './discovery.ts';
import { edgeValueCases } from './edge-values.ts';
import { faultCases } from './faults.ts';
import { schemaCases } from './schemas.ts';
import { serverSideCases } from './server-side.ts';
import { protocolEraCases } from './protocol-era.ts';
import { transportCases } from './transports.ts';

export const extendedMatrix = defineMatrix({
  name: 'extended',
  title: 'Beyond the 13 cases: discovery, edge values, schemas, server helpers and faults',
  source: 'scenarios/extended/ (each case names its question and the spec clause or SDK issue it probes)',
  scenarios: [...discoveryCases, ...edgeValueCases, ...schemaCases, ...serverSideCases, ...faultCases, ...protocolEraCases, ...transportCases],
});

// Preloaded into each benchmarked process (node --import): writes its peak resident set size on exit, and
// the CPU time its threads used (user + system, microseconds), which a loaded machine distorts less than
// wall time (the bench prints both).
import { writeFileSync } from 'node:fs';

const target = process.env.BENCH_RSS_FILE;
const cpuTarget = process.env.BENCH_CPU_FILE;
process.on('exit', () => {
  const usage = process.resourceUsage();
  if (target) writeFileSync(target, String(usage.maxRSS));
  if (cpuTarget) writeFileSync(cpuTarget, String(usage.userCPUTime + usage.systemCPUTime));
});

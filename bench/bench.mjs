// `npm run bench`: the shipped command running the 13-case audit end to end, side by side with the floor
// (bench/floor.mjs: the same 13 calls through the same SDKs, no harness). Runs alternate so machine noise
// hits both alike; medians and their ratio are the result. A benchmark, not a test: it asserts nothing.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// Issue 10: the audit end to end within 1.15x the floor; `--matrix all` on both cores within 0.6x of one.
const TARGET_RATIO = 1.15;
const MATRIX_ALL_TARGET = 0.6;
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '10' },
    'sweep-runs': { type: 'string', default: '3' },
    only: { type: 'string' },
    'scale-cases': { type: 'string', default: '1000,10000' },
    'scale-runs': { type: 'string', default: '3' },
    // The warm `--matrix all` sweep waits on its fault and timeout cases in every release (~20 minutes).
    'skip-sweep-all': { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
const sweepRuns = Number(values['sweep-runs']);
const scaleRuns = Number(values['scale-runs']);
if (!Number.isInteger(runs) || runs < 5) {
  console.error(`bench: --runs takes a whole number of at least 5, got '${values.runs}'`);
  process.exit(2);
}
if (!Number.isInteger(sweepRuns) || sweepRuns < 1) {
  console.error(`bench: --sweep-runs takes a whole number of at least 1, got '${values['sweep-runs']}'`);
  process.exit(2);
}
if (!Number.isInteger(scaleRuns) || scaleRuns < 1) {
  console.error(`bench: --scale-runs takes a whole number of at least 1, got '${values['scale-runs']}'`);
  process.exit(2);
}
if (values.only !== undefined && !['audit', 'matrix', 'scale', 'sweep', 'explore'].includes(values.only)) {
  console.error(`bench: --only takes audit, matrix, scale, sweep or explore, got '${values.only}'`);
  process.exit(2);
}

const scratch = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-bench-'));
const rssFile = join(scratch, 'rss');
const cpuFile = join(scratch, 'cpu');
const subjects = {
  floor: [join(ROOT, 'bench', 'floor.mjs')],
  probe: [join(ROOT, 'probe', 'bin', 'launch.mjs'), '--out', join(scratch, 'latest.json')],
  // For reference only: the same CLI run from source through tsx, the loader the bundle avoids.
  tsx: ['--import', 'tsx', join(ROOT, 'probe', 'commands', 'main.ts'), '--out', join(scratch, 'latest.json')],
};

function timeOnce(args, env = {}, okStatuses = [0]) {
  const started = process.hrtime.bigint();
  const child = spawnSync(process.execPath, ['--import', join(ROOT, 'bench', 'rss.mjs'), ...args], {
    cwd: ROOT,
    env: { ...process.env, BENCH_RSS_FILE: rssFile, BENCH_CPU_FILE: cpuFile, NO_COLOR: '1', ...env },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (!okStatuses.includes(child.status)) throw new Error(`${args[0]} exited ${child.status}: ${child.stderr || child.stdout}`);
  return { ms, rssKb: Number(readFileSync(rssFile, 'utf8')), cpuMs: Number(readFileSync(cpuFile, 'utf8')) / 1000, stderr: child.stderr };
}

/** The machine's load when a part starts: ratios measured on a busy machine are noisy. */
function loadLine() {
  return `load ${loadavg().map((x) => x.toFixed(2)).join(' ')} on ${availableParallelism()} cores`;
}

const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

function benchAudit() {
  // The first run after a fresh clone (or a source change) bundles probe/ first; measured once, apart.
  rmSync(join(ROOT, 'dist'), { recursive: true, force: true });
  const firstRun = timeOnce(subjects.probe);
  timeOnce(subjects.floor); // warm the file cache for both before measuring

  const samples = { floor: [], probe: [], tsx: [] };
  const order = ['floor', 'probe', 'tsx'];
  for (let i = 0; i < runs; i++) {
    for (const name of i % 2 ? [...order].reverse() : order) samples[name].push(timeOnce(subjects[name]));
  }
  const stats = Object.fromEntries(
    Object.entries(samples).map(([name, xs]) => [name, { ms: median(xs.map((x) => x.ms)), rssMb: median(xs.map((x) => x.rssKb)) / 1024, cpuMs: median(xs.map((x) => x.cpuMs)) }]),
  );
  const ratio = stats.probe.ms / stats.floor.ms;
  const rssRatio = stats.probe.rssMb / stats.floor.rssMb;
  const row = (label, s) => `${label.padEnd(56)} ${s.ms.toFixed(0).padStart(6)} ms  ${s.rssMb.toFixed(1).padStart(6)} MB  ${s.cpuMs.toFixed(0).padStart(6)} ms CPU`;
  console.log(`13-case audit, ${runs} alternating runs each, node ${process.version}, ${loadLine()}, medians (wall time, peak RSS, CPU of all threads)`);
  console.log(row('floor: bench/floor.mjs (same 13 calls, no harness)', stats.floor));
  console.log(row('probe: mcp-sdk-probe (probe/bin/launch.mjs)', stats.probe));
  console.log(row('reference: the same CLI from source through tsx', stats.tsx));
  console.log(`ratio probe/floor: time ${ratio.toFixed(2)}x (target <= ${TARGET_RATIO}x: ${ratio <= TARGET_RATIO ? 'met' : 'MISSED'}), memory ${rssRatio.toFixed(2)}x; through tsx it would be ${(stats.tsx.ms / stats.floor.ms).toFixed(2)}x`);
  console.log(`CPU time probe/floor: ${(stats.probe.cpuMs / stats.floor.cpuMs).toFixed(2)}x (less distorted than wall time on a loaded machine; not the target)`);
  console.log(`first run after a fresh clone (includes bundling probe/ with esbuild): ${firstRun.ms.toFixed(0)} ms`);
}

function benchMatrixAll() {
  // The case pool: every case of --matrix all with a thread per core against one thread, alternating.
  const samples = { 2: [], 1: [] };
  for (let i = 0; i < sweepRuns; i++) {
    for (const jobs of i % 2 ? [1, 2] : [2, 1]) {
      samples[jobs].push(timeOnce([subjects.probe[0], '--matrix', 'all', '--jobs', String(jobs), '--out', join(scratch, `all-${jobs}.json`)]));
    }
  }
  const two = median(samples[2].map((x) => x.ms));
  const one = median(samples[1].map((x) => x.ms));
  const same = readFileSync(join(scratch, 'all-1.json'), 'utf8') === readFileSync(join(scratch, 'all-2.json'), 'utf8');
  const ratio = two / one;
  const cases = JSON.parse(readFileSync(join(scratch, 'all-1.json'), 'utf8')).cases.length;
  console.log(`
--matrix all (${cases} cases), ${sweepRuns} alternating runs each, medians, ${loadLine()}`);
  console.log(`--jobs 2: ${(two / 1000).toFixed(1)} s   --jobs 1: ${(one / 1000).toFixed(1)} s   ratio ${ratio.toFixed(2)}x (target <= ${MATRIX_ALL_TARGET}x: ${ratio <= MATRIX_ALL_TARGET ? 'met' : 'MISSED'}); result files ${same ? 'byte-identical' : 'DIFFER'}`);
}

// Issue 10: a generated matrix of user scenario files against a bare loop making the same calls, per case
// (target <= 1.1x) and peak memory (target <= 1.2x, flat from 1,000 to 10,000 cases). One thread each
// (--jobs 1), so the per-case cost is compared, not the cores.
const SCALE_TIME_TARGET = 1.1;
const SCALE_MEMORY_TARGET = 1.2;
const SHAPES = [
  { content: [{ type: 'text', text: '{"value":7}' }], structuredContent: { value: 7 } },
  { content: [{ type: 'text', text: '{"error":"unavailable"}' }], structuredContent: { error: 'unavailable' } },
  { content: [{ type: 'text', text: '7' }] },
  { content: [{ type: 'text', text: 'unavailable' }], isError: true },
  { content: [{ type: 'text', text: 'unavailable' }], structuredContent: { error: 'unavailable' }, isError: true },
  { content: [{ type: 'text', text: 'unavailable' }], structuredContent: { value: 0 }, isError: true },
];
const SCALE_TOOL = {
  name: 'probe_value',
  inputSchema: { type: 'object' },
  outputSchema: { type: 'object', properties: { value: { type: 'number' } }, required: ['value'], additionalProperties: false },
};

// Flat: the probe's peak memory may grow from the smallest size to the largest by no more than the bare
// loop's does (the bare loop keeps nothing; what it grows by is V8's and the SDKs' own).
function benchScale() {
  console.log(`\ngenerated user scenarios (4 cells each: v1/v2, warm/cold), one thread, against the bare loop, ${scaleRuns} alternating runs each, medians, ${loadLine()}`);
  const sizes = [];
  for (const cases of values['scale-cases'].split(',').map(Number)) {
    const dir = join(scratch, `scale-${cases}`);
    mkdirSync(dir, { recursive: true });
    const scenarios = Array.from({ length: Math.ceil(cases / 4) }, (_, i) => ({
      shape: `scale-${String(i).padStart(5, '0')}`,
      tool: SCALE_TOOL,
      result: SHAPES[i % SHAPES.length],
      // No expectation: every case only reports (unjudged), as the floor does.
      expected: { 'v1/warm': 'returned', 'v1/cold': 'returned', 'v2/warm': 'returned', 'v2/cold': 'returned' },
    }));
    writeFileSync(join(dir, 'scale.json'), JSON.stringify(scenarios));
    // Alternating, medians: one 10,000-case run of each swung by 30% from one minute to the next here.
    // The third, for reference: the bare loop moved into one case thread (bench/floor.mjs --in-worker),
    // which is what the isolation issue 10 asks for (a hard deadline per case) costs by itself.
    const runs = { probe: [], floor: [], isolated: [] };
    for (let i = 0; i < scaleRuns; i++) {
      const measure = {
        probe: () => timeOnce([subjects.probe[0], '--scenarios', dir, '--case', 'scale-', '--jobs', '1', '--out', join(scratch, `scale-${cases}.json`)], {}, [0, 1]),
        floor: () => timeOnce([join(ROOT, 'bench', 'floor.mjs'), '--cases', String(scenarios.length * 4)]),
        isolated: () => timeOnce([join(ROOT, 'bench', 'floor.mjs'), '--in-worker', '--cases', String(scenarios.length * 4)]),
      };
      const order = ['probe', 'floor', 'isolated'];
      for (const name of i % 2 ? [...order].reverse() : order) runs[name].push(measure[name]());
    }
    const medianOf = (xs) => ({ ms: median(xs.map((x) => x.ms)), rssKb: median(xs.map((x) => x.rssKb)), cpuMs: median(xs.map((x) => x.cpuMs)) });
    const probe = medianOf(runs.probe);
    const floor = medianOf(runs.floor);
    const isolated = medianOf(runs.isolated);
    const perCase = (x) => x.ms / (scenarios.length * 4);
    console.log(
      `${String(scenarios.length * 4).padStart(6)} cases: probe ${perCase(probe).toFixed(2)} ms/case ${(probe.rssKb / 1024).toFixed(0)} MB; ` +
        `bare loop ${perCase(floor).toFixed(2)} ms/case ${(floor.rssKb / 1024).toFixed(0)} MB; ` +
        `time ${(probe.ms / floor.ms).toFixed(2)}x (target <= ${SCALE_TIME_TARGET}x: ${probe.ms / floor.ms <= SCALE_TIME_TARGET ? 'met' : 'MISSED'}), ` +
        `memory ${(probe.rssKb / floor.rssKb).toFixed(2)}x (target <= ${SCALE_MEMORY_TARGET}x: ${probe.rssKb / floor.rssKb <= SCALE_MEMORY_TARGET ? 'met' : 'MISSED'}); ` +
        `CPU ${(probe.cpuMs / floor.cpuMs).toFixed(2)}x`,
    );
    console.log(
      `${''.padStart(6)}        the bare loop in one case thread (bench/floor.mjs --in-worker): ${perCase(isolated).toFixed(2)} ms/case ${(isolated.rssKb / 1024).toFixed(0)} MB, ` +
        `time ${(isolated.ms / floor.ms).toFixed(2)}x the bare loop: what the isolation costs by itself; the probe is ${(probe.ms / isolated.ms).toFixed(2)}x that`,
    );
    sizes.push({ cases: scenarios.length * 4, probe, floor });
  }
  if (sizes.length >= 2) {
    const [small, large] = [sizes[0], sizes[sizes.length - 1]];
    const growth = (a, b) => `${((b.rssKb - a.rssKb) / 1024).toFixed(0)} MB (${(b.rssKb / a.rssKb).toFixed(2)}x)`;
    const flat = large.probe.rssKb / small.probe.rssKb <= large.floor.rssKb / small.floor.rssKb + 0.05;
    console.log(
      `peak memory from ${small.cases} to ${large.cases} cases: probe +${growth(small.probe, large.probe)}, bare loop +${growth(small.floor, large.floor)} ` +
        `(flat: grows no more than the bare loop's, within 5%: ${flat ? 'met' : 'MISSED'})`,
    );
  }
}

// Issue 11: a warm audit sweep over every stable v1 and v2 release within 0.6x of the floor
// (bench/sweep-floor.mjs: each cached release loaded once, in one process, one after another, making the
// same calls), on 2 cores.
const SWEEP_FLOOR_TARGET = 0.6;
const SWEEP = ['sweep', '--v1', '1.10.0..latest', '--v2', '2.0.0..latest', '--baseline', join(scratch, 'none.json')];
// Warm runs must not need the registry: the ranges resolve from the version lists the cold run cached
// (under an hour old). A registry that refuses every connection would show as a warning and a wait.
const NO_REGISTRY = { npm_config_registry: 'http://127.0.0.1:9/' };

/**
 * Two copies of a command side by side, as one would run on each core: how this machine's two cores
 * scale (1.0x one copy's time: two full cores; 2.0x: one). Bounds what any split of a CPU-bound job can do.
 */
async function timeSideBySide(args, env) {
  const started = process.hrtime.bigint();
  await Promise.all(
    [0, 1].map(
      () =>
        new Promise((resolve, reject) => {
          const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: 'ignore' });
          child.on('error', reject);
          child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${args[0]} exited ${code}`))));
        }),
    ),
  );
  return Number(process.hrtime.bigint() - started) / 1e6;
}

async function benchSweep() {
  // Cold: an empty release cache, so every release installs, in the one npm invocation a sweep makes.
  // npm's own download cache (~/.npm) is left alone: a second machine run would have it warm too.
  const cache = join(scratch, 'release-cache');
  const cold = timeOnce([subjects.probe[0], ...SWEEP, '--out', join(scratch, 'cold.json')], { MCP_SDK_PROBE_CACHE: cache });
  const coldText = readFileSync(join(scratch, 'cold.json'), 'utf8');
  const { plan } = JSON.parse(coldText);
  const warm = (jobs) => {
    const out = join(scratch, `warm-${jobs}.json`);
    const run = timeOnce([subjects.probe[0], ...SWEEP, '--jobs', String(jobs), '--out', out], { MCP_SDK_PROBE_CACHE: cache, ...NO_REGISTRY });
    if (/registry unreachable/.test(run.stderr)) throw new Error('a warm sweep asked the registry');
    if (readFileSync(out, 'utf8') !== coldText) throw new Error(`the warm sweep with ${jobs} worker(s) wrote another result than the cold one`);
    return run;
  };
  const floorArgs = [join(ROOT, 'bench', 'sweep-floor.mjs'), cache, ...plan];
  const subjectsOf = { floor: () => timeOnce(floorArgs), 2: () => warm(2), 1: () => warm(1) };
  const order = ['floor', 2, 1];
  const samples = { floor: [], 2: [], 1: [] };
  subjectsOf.floor(); // the file cache warm for every release before measuring
  for (let i = 0; i < sweepRuns; i++) {
    for (const name of i % 2 ? [...order].reverse() : order) samples[name].push(subjectsOf[name]());
  }
  const sideBySide = [];
  for (let i = 0; i < sweepRuns; i++) sideBySide.push(await timeSideBySide(floorArgs));
  const ms = (name) => median(samples[name].map((x) => x.ms));
  const scaling = median(sideBySide) / ms('floor');
  const mb = (name) => median(samples[name].map((x) => x.rssKb)) / 1024;
  const all = values['skip-sweep-all'] ? undefined : timeOnce([subjects.probe[0], ...SWEEP, '--matrix', 'all', '--out', join(scratch, 'all.json')], { MCP_SDK_PROBE_CACHE: cache, ...NO_REGISTRY });
  const ratio = ms(2) / ms('floor');
  const row = (label, name) => `${label.padEnd(58)} ${(ms(name) / 1000).toFixed(1).padStart(6)} s  ${mb(name).toFixed(0).padStart(5)} MB`;
  console.log(`\nsweep of v1 1.10.0..latest and v2 2.0.0..latest: ${plan.length} releases, ${sweepRuns} alternating warm runs each, medians (wall time, peak RSS)`);
  console.log(row('floor: bench/sweep-floor.mjs (each release once, one process)', 'floor'));
  console.log(row('warm sweep, 2 workers (no registry)', 2));
  console.log(row('warm sweep, 1 worker (no registry)', 1));
  console.log(`ratio sweep/floor: ${ratio.toFixed(2)}x (target <= ${SWEEP_FLOOR_TARGET}x: ${ratio <= SWEEP_FLOOR_TARGET ? 'met' : 'MISSED'}); 1 worker ${(ms(1) / ms('floor')).toFixed(2)}x; warm results byte-identical to the cold run's`);
  console.log(
    `this machine's two cores: two floors side by side take ${scaling.toFixed(2)}x one floor's time (1.00x: two full cores), so the floor's work split ` +
      `perfectly over two workers would take about ${(scaling / 2).toFixed(2)}x the floor: the best any sweep can do here`,
  );
  console.log(`cold (empty release cache: npm view, one npm install of every release, then the sweep): ${(cold.ms / 1000).toFixed(1)} s`);
  if (all) console.log(`warm --matrix all (${JSON.parse(readFileSync(join(scratch, 'all.json'), 'utf8')).summary.cases} case records), 2 workers, once: ${(all.ms / 1000).toFixed(1)} s`);
}

// Issue 13: `explore` with its default budget (400 sequences, seed 13, v1 and v2) in under a minute.
const EXPLORE_TARGET_MS = 60_000;
function benchExplore() {
  const known = join(scratch, 'explore-known-none.json');
  const measure = (budget) => {
    const out = join(scratch, `explore-${budget ?? 'default'}`);
    const args = [subjects.probe[0], 'explore', '--out', out, '--known', known, ...(budget ? ['--runs', String(budget)] : [])];
    // Exit 1: findings not in the (absent) known-findings file, as expected here.
    const started = process.hrtime.bigint();
    const child = spawnSync(process.execPath, args, { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, encoding: 'utf8' });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (![0, 1].includes(child.status)) throw new Error(`explore exited ${child.status}: ${child.stderr}`);
    const [, generated, run] = /(\d+) sequences generated \(seed \d+\), (\d+) run with shrinking/.exec(child.stdout) ?? [];
    return { ms, generated: Number(generated), run: Number(run), findings: Number(/(\d+) findings?:/.exec(child.stdout)?.[1]) };
  };
  const samples = Array.from({ length: 3 }, () => measure(undefined));
  const ms = median(samples.map((x) => x.ms));
  const { generated, run, findings } = samples[0];
  // Start-up apart: a 1-sequence run is the fixed cost (node, the bundle, the SDKs).
  const startup = median(Array.from({ length: 3 }, () => measure(1).ms));
  console.log(`
explore, default budget (seed 13, v1 and v2 in memory), 3 runs, medians`);
  console.log(`${generated} sequences generated, ${run} run with shrinking, ${findings} findings: ${(ms / 1000).toFixed(1)} s (target < ${EXPLORE_TARGET_MS / 1000} s: ${ms < EXPLORE_TARGET_MS ? 'met' : 'MISSED'})`);
  console.log(`${(run / ((ms - startup) / 1000)).toFixed(1)} sequences per second (each against both lines; start-up ${(startup / 1000).toFixed(1)} s apart)`);
}

try {
  if (values.only === undefined || values.only === 'audit') benchAudit();
  if (values.only === undefined || values.only === 'matrix') benchMatrixAll();
  if (values.only === undefined || values.only === 'scale') benchScale();
  if (values.only === undefined || values.only === 'sweep') await benchSweep();
  if (values.only === undefined || values.only === 'explore') benchExplore();
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

// The floor for `npm run bench`: the same 13 calls the audit makes, with no harness around them.
// Fresh server and client per call, like the probe, so the only difference is the harness itself.
import { isMainThread, Worker } from 'node:worker_threads';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Client as V2Client } from '@modelcontextprotocol/client';
import { floorCall, shapes } from './floor-call.mjs';

// `--in-worker`: the same loop in one worker thread with the case pool's young generation (probe/engine/
// pool.ts YOUNG_GENERATION_MB), this thread only waiting: what running the calls in an isolated case
// thread costs by itself, without the rest of the harness.
if (isMainThread && process.argv.includes('--in-worker')) {
  const worker = new Worker(new URL(import.meta.url), {
    argv: process.argv.slice(2).filter((arg) => arg !== '--in-worker'),
    resourceLimits: { maxYoungGenerationSizeMb: 4 },
  });
  await new Promise((resolve, reject) => {
    worker.on('error', reject);
    worker.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the floor's worker exited ${code}`))));
  });
} else {
  const call = (line, warm, result) => floorCall(line, line === 'v1' ? V1Client : V2Client, warm, result);

  // `--cases N`: the scale floor for `npm run bench -- --only scale`: N calls cycling through the six shapes
  // and the four client/discovery cells, as the generated scenario files of that benchmark do.
  const scale = process.argv.indexOf('--cases');
  const outcomes = [];
  if (scale !== -1) {
    const cases = Number(process.argv[scale + 1]);
    const cells = [['v1', true], ['v1', false], ['v2', true], ['v2', false]];
    for (let i = 0; i < cases; i++) {
      const [line, warm] = cells[i % 4];
      await call(line, warm, shapes[Math.floor(i / 4) % shapes.length]);
    }
  } else {
    for (const line of ['v1', 'v2']) for (const result of shapes) outcomes.push(await call(line, true, result));
    outcomes.push(await call('v1', false, shapes[4]));
  }
  if (process.argv.includes('--print')) console.log(outcomes.join('\n'));
}

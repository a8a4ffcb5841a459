// The case pool (engine/pool.ts): a client that blocks its thread is recorded as a timeout about when the
// case's limit ends and the run goes on; a thread that dies is recorded as a crash of its case; results
// are in scenario order and the same with one thread or several.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BEAT_MS, BOARD, BOARD_BYTES, BOARD_SENT, BOARD_SENT_POSTED, BOARD_STAGES, boardBeat, boardMovedOn, boardRead, boardStart, newBoard } from '../probe/engine/pool-protocol.ts';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { defineCase } from '../probe/core/define.ts';
import { ResultFileSchema } from '../probe/core/domain.ts';
import { CASE_WORKER, dispatchOrder, dispatchPlan, runCasesInPool, waitsForLimit } from '../probe/engine/pool.ts';
import { BOARD_BYTES as BOARD_BYTES_AT_LAUNCH, LAUNCH_THREAD, runsCases, runsSweep, startLaunchThread, YOUNG_GENERATION_MB } from '../probe/bin/launch-threads.mjs';
import { extendedMatrix } from '../scenarios/extended/index.ts';
import { captureEnvironment } from '../probe/io/environment.ts';
import { auditShapes, auditTool } from '../scenarios/audit.ts';
import { runMain } from './helpers/main.ts';

const dir = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-pool-'));
/** An environment no earlier run in this file had, so no idle thread of theirs is reused (pool.ts `idle`). */
const ownEnvironment = (test: string) => {
  const environment = captureEnvironment();
  return { ...environment, packages: { ...environment.packages, [`pool-test-${test}`]: '0.0.0' } };
};

describe('case pool', () => {
  it('records a client stuck in its own outputSchema validator as a timeout at the call, about when the limit ends', async () => {
    // `^(a+)+$` against 40 a's and a b backtracks for far longer than any test: the client's thread is
    // blocked inside its validator, so only the pool's deadline can end the case.
    const capture = join(dir, 'redos.json');
    const value = `${'a'.repeat(40)}b`;
    writeFileSync(
      capture,
      JSON.stringify({
        tool: { name: 'redos', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { v: { type: 'string', pattern: '^(a+)+$' } }, required: ['v'] } },
        result: { content: [{ type: 'text', text: value }], structuredContent: { v: value } },
      }),
    );
    // The SDK lines (the ecosystem lines' validators meet the same pattern; a thread each is not this test's point).
    const run = await runMain(['replay', capture, '--clients', 'v1,v2', '--timeout', '1000', '--json', '--out', join(dir, 'redos-result.json')]);
    expect(run.stderr).toBe('');
    const result = ResultFileSchema.parse(JSON.parse(run.stdout));
    const byId = Object.fromEntries(result.cases.map((c) => [c.id, c.observed]));
    // Both clients validate after tools/list and are stopped; without tools/list neither validates.
    for (const id of ['v1/warm/redos', 'v2/warm/redos']) {
      expect(byId[id]).toMatchObject({ outcome: 'timeout', stage: 'call', afterMs: 1000, serverSent: 'as-scenario' });
    }
    for (const id of ['v1/cold/redos', 'v2/cold/redos']) expect(byId[id]).toMatchObject({ outcome: 'returned' });
    // The probe's own rule checks meet the same pattern; they say they did not finish rather than hang.
    expect(result.lint?.redos?.map((f) => f.rule)).toEqual(['checks-not-finished']);
    // That the run finished at all shows the pool's deadline ended the stuck cases: the validator alone would
    // take far longer than this test's limit. No wall-clock assertion (shared, noisy machines).
  }, 60_000);

  it('stops a thread whose heartbeat stands still past the limit without waiting out the grace (its validator, then its rule checks)', async () => {
    // The grace is a minute here: a thread stopped only after it would take the test past its own limit.
    // Stopped on its heartbeat, each stuck case ends at its limit plus BLOCKED_MS (and a new thread).
    const value = `${'a'.repeat(40)}b`;
    const tool = { name: 'redos', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { v: { type: 'string', pattern: '^(a+)+$' } }, required: ['v'] } };
    const shape = { id: 'redos', title: 'redos', result: { content: [{ type: 'text', text: value }], structuredContent: { v: value } } };
    const scenarios = [
      // Blocked in the client's validator during the call.
      defineCase({ client: 'v1', discovery: 'warm', shape, tool, expected: null }),
      // Returned at once (no tools/list, no validation), then blocked in the probe's own rule checks.
      defineCase({ client: 'v2', discovery: 'cold', shape, tool, expected: null }),
      defineCase({ client: 'v1', discovery: 'cold', shape: { ...shape, id: 'fine', result: auditShapes.conformingSuccess.result }, tool: auditTool, expected: null }),
    ];
    const lints: Record<string, string[] | null> = {};
    const { records } = await runCasesInPool(scenarios, {
      jobs: 1,
      // Room for a fresh thread's first connect on a busy machine; the grace is what this test is about.
      timeoutMs: 3000,
      graceMs: 60_000,
      environment: ownEnvironment('heartbeat'),
      onCaseDone: (index, _record, lint) => void (lints[scenarios[index]!.id] = lint?.map((f) => f.rule) ?? null),
    });
    expect(records.map((r) => r.observed.outcome)).toEqual(['timeout', 'returned', 'returned']);
    expect(records[0]!.observed).toMatchObject({ stage: 'call', afterMs: 3000 });
    expect(lints['v2/cold/redos']).toEqual(['checks-not-finished']);
    expect(lints['v1/cold/fine']).not.toBeNull();
    expect(lints['v1/cold/fine']).not.toContain('checks-not-finished');
  }, 30_000);

  it('records a thread that dies mid-case as a crash of that case, and runs the others', async () => {
    const shape = (id: string) => ({ id, title: id, result: auditShapes.conformingSuccess.result });
    const scenarios = [
      defineCase({ client: 'v1', discovery: 'warm', shape: shape('before'), tool: auditTool, expected: null }),
      defineCase({ client: 'v2', discovery: 'warm', shape: shape('worker-exits'), tool: auditTool, expected: null }),
      defineCase({ client: 'v1', discovery: 'cold', shape: shape('after'), tool: auditTool, expected: null }),
    ];
    const { records } = await runCasesInPool(scenarios, {
      jobs: 1,
      timeoutMs: 5000,
      environment: captureEnvironment(),
      workerUrl: pathToFileURL(join(import.meta.dirname, 'fixtures', 'pool', 'exiting-worker.mjs')),
      workerData: { realWorker: CASE_WORKER.href },
    });
    expect(records.map((r) => [r.id, r.observed.outcome])).toEqual([
      ['v1/warm/before', 'returned'],
      ['v2/warm/worker-exits', 'crashed'],
      ['v1/cold/after', 'returned'],
    ]);
    expect(records[1]!.observed).toMatchObject({ outcome: 'crashed', stage: 'connect', error: { name: 'WorkerExit' } });
  });

  it('records an uncaught error of a thread as a crash of the case it was running, and runs the others', async () => {
    const shape = (id: string) => ({ id, title: id, result: auditShapes.conformingSuccess.result });
    const scenarios = [
      defineCase({ client: 'v1', discovery: 'warm', shape: shape('before-throw'), tool: auditTool, expected: null }),
      defineCase({ client: 'v2', discovery: 'warm', shape: shape('worker-throws'), tool: auditTool, expected: null }),
      defineCase({ client: 'v1', discovery: 'cold', shape: shape('after-throw'), tool: auditTool, expected: null }),
    ];
    const { records } = await runCasesInPool(scenarios, {
      jobs: 1,
      timeoutMs: 5000,
      environment: captureEnvironment(),
      workerUrl: pathToFileURL(join(import.meta.dirname, 'fixtures', 'pool', 'exiting-worker.mjs')),
      workerData: { realWorker: CASE_WORKER.href },
    });
    expect(records.map((r) => [r.id, r.observed.outcome])).toEqual([
      ['v1/warm/before-throw', 'returned'],
      ['v2/warm/worker-throws', 'crashed'],
      ['v1/cold/after-throw', 'returned'],
    ]);
    expect(records[1]!.observed).toMatchObject({ outcome: 'crashed', error: { name: 'TypeError', message: 'the thread fails during case 1' } });
  });

  it('fails the run when a thread dies before it has loaded the clients (no respawning forever)', async () => {
    const scenario = defineCase({ client: 'v1', discovery: 'warm', shape: { id: 'x', title: 'x', result: auditShapes.conformingSuccess.result }, tool: auditTool, expected: null });
    await expect(
      runCasesInPool([scenario, scenario], {
        jobs: 2,
        timeoutMs: 5000,
        environment: captureEnvironment(),
        workerUrl: pathToFileURL(join(import.meta.dirname, 'fixtures', 'pool', 'dies-at-start.mjs')),
      }),
    ).rejects.toThrow(/exited \(code 3\) before it had loaded the clients/);
  });

  it('closes what a case made after its deadline passed: no stdio server child is left behind', async () => {
    // A 60 ms limit ends each stdio case while its child is still starting; the late connection is closed.
    const run = await runMain(['--matrix', 'extended', '--case', '*/warm/stdio-*', '--timeout', '60', '--jobs', '1', '--json', '--out', join(dir, 'late.json')]);
    expect(run.stderr).toBe('');
    // The late connections finish and are closed within a few seconds (each child starts Node first).
    const stdioChildren = () =>
      execFileSync('ps', ['--ppid', String(process.pid), '-o', 'args='], { encoding: 'utf8' })
        .split('\n')
        .filter((line) => line.includes('fixture-stdio'));
    for (let waited = 0; waited < 15_000 && stdioChildren().length > 0; waited += 250) await new Promise((resolve) => setTimeout(resolve, 250));
    expect(stdioChildren()).toEqual([]);
  }, 60_000);

  it('gives the same result file with one thread as with two', async () => {
    const one = await runMain(['--jobs', '1', '--out', join(dir, 'one.json')]);
    const two = await runMain(['--jobs', '2', '--out', join(dir, 'two.json')]);
    expect([one.code, two.code]).toEqual([0, 0]);
    expect(readFileSync(join(dir, 'two.json'), 'utf8')).toBe(readFileSync(join(dir, 'one.json'), 'utf8'));
  });

  it('hands the slow cases (stdio, then loopback HTTP) to threads first, the rest in scenario order', () => {
    const scenarios = extendedMatrix.scenarios;
    const order = dispatchOrder(scenarios);
    expect([...order].sort((a, b) => a - b)).toEqual(scenarios.map((_, i) => i));
    const kinds = order.map((i) => scenarios[i]!.transport ?? 'in-memory');
    const firstOther = kinds.findIndex((kind) => kind !== 'stdio');
    expect(firstOther).toBeGreaterThan(0);
    expect(kinds.slice(firstOther).includes('stdio')).toBe(false);
    const afterHttp = kinds.findIndex((kind, i) => i >= firstOther && kind !== 'http');
    expect(afterHttp).toBeGreaterThan(firstOther);
    expect(kinds.slice(afterHttp).some((kind) => kind === 'stdio' || kind === 'http')).toBe(false);
    // Within each kind, scenario order.
    for (const part of [order.slice(0, firstOther), order.slice(firstOther, afterHttp), order.slice(afterHttp)]) expect(part).toEqual([...part].sort((a, b) => a - b));
  });

  it('reads the status board only for the case it asks about, and knows when a thread has moved past it', () => {
    const board = new Int32Array(newBoard());
    // Nothing started yet (a board kept across runs is back here between cases).
    expect(boardRead(board, 0)).toEqual({ stage: 'connect', sent: undefined });
    expect(boardMovedOn(board, 0)).toBe(false);
    boardStart(board, 4);
    Atomics.store(board, BOARD.stage, BOARD_STAGES.indexOf('call'));
    Atomics.store(board, BOARD.sent, BOARD_SENT.indexOf('as-scenario') + 1);
    expect(boardRead(board, 4)).toEqual({ stage: 'call', sent: 'as-scenario' });
    // Another case's progress is not this one's; the thread is past case 3 (its report is on its way).
    expect(boardRead(board, 3)).toEqual({ stage: 'connect', sent: undefined });
    expect([boardMovedOn(board, 3), boardMovedOn(board, 4)]).toEqual([true, false]);
    Atomics.store(board, BOARD.sent, BOARD_SENT_POSTED);
    expect(boardRead(board, 4).sent).toBe('posted');
    boardStart(board, 5);
    expect(boardRead(board, 5)).toEqual({ stage: 'connect', sent: undefined });
  });

  it('puts the cases that only wait for a limit (the server never answers the call) on a list of their own', () => {
    const scenarios = extendedMatrix.scenarios;
    const { waiting, working } = dispatchPlan(scenarios);
    expect([...waiting, ...working].sort((a, b) => a - b)).toEqual(scenarios.map((_, i) => i));
    // The extended matrix's faults that wait: never answers (with and without a client limit), malformed, wrong id; both SDK lines.
    expect(waiting.map((i) => scenarios[i]!.id).sort()).toEqual(
      ['fault-answer-wrong-id', 'fault-malformed-answer', 'fault-never-answers', 'fault-never-answers-client-timeout'].flatMap((f) => [`v1/warm/${f}`, `v2/warm/${f}`]).sort(),
    );
    expect(working.some((i) => waitsForLimit(scenarios[i]!))).toBe(false);
    // Each list keeps dispatchOrder's order (slow first, then scenario order).
    const order = dispatchOrder(scenarios);
    for (const list of [waiting, working]) expect(list).toEqual(order.filter((i) => list.includes(i)));
  });

  it('adopts the case thread bin/launch.mjs started: the run cases run in it', async () => {
    const thread = startLaunchThread(fileURLToPath(CASE_WORKER));
    (globalThis as Record<symbol, unknown>)[LAUNCH_THREAD] = thread;
    const messages: string[] = [];
    thread.worker.on('message', (message: { kind: string }) => messages.push(message.kind));
    const shape = (id: string) => ({ id, title: id, result: auditShapes.conformingSuccess.result });
    const scenarios = ['a', 'b', 'c'].map((id) => defineCase({ client: 'v1', discovery: 'warm', shape: shape(`launch-${id}`), tool: auditTool, expected: null }));
    const { records } = await runCasesInPool(scenarios, { jobs: 1, timeoutMs: 5000, environment: ownEnvironment('adopts') });
    expect(records.map((r) => r.observed.outcome)).toEqual(['returned', 'returned', 'returned']);
    // Taken, and it ran them: its ready, then each case's observation and close.
    expect((globalThis as Record<symbol, unknown>)[LAUNCH_THREAD]).toBeUndefined();
    expect(messages).toEqual(['ready', ...scenarios.flatMap(() => ['observed', 'closed'])]);
  });

  it("beats on its board while its loop turns (a case thread as bin/launch.mjs starts it, board of the pool's size)", async () => {
    expect(BOARD_BYTES_AT_LAUNCH).toBe(BOARD_BYTES);
    const thread = startLaunchThread(fileURLToPath(CASE_WORKER));
    try {
      const board = new Int32Array(thread.board);
      const first = boardBeat(board);
      // A few beats, however slow the machine (polled, no wall-clock bound but the test's own).
      while (boardBeat(board) < first + 3) await new Promise((resolve) => setTimeout(resolve, BEAT_MS));
      expect(boardBeat(board)).toBeGreaterThanOrEqual(first + 3);
    } finally {
      await thread.worker.terminate();
    }
  });

  it('does not adopt a thread started with another young generation (it is ended) and runs the case anyway', async () => {
    const board = newBoard();
    const worker = new Worker(CASE_WORKER, { workerData: { board }, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB * 2 } });
    const ended = new Promise((resolve) => worker.once('exit', resolve));
    (globalThis as Record<symbol, unknown>)[LAUNCH_THREAD] = { worker, board, exited: false };
    const scenario = defineCase({ client: 'v2', discovery: 'cold', shape: { id: 'other-limits', title: 'x', result: auditShapes.conformingSuccess.result }, tool: auditTool, expected: null });
    const { records } = await runCasesInPool([scenario], { jobs: 1, timeoutMs: 5000, environment: ownEnvironment('not-adopted') });
    expect(records[0]!.observed.outcome).toBe('returned');
    await ended;
  });

  it('starts a case thread at launch for the commands that run cases only, a sweep worker for a sweep', () => {
    const cases: [string[], boolean][] = [
      [[], true],
      [['--matrix', 'all'], true],
      [['replay', 'x.json'], true],
      [['--help'], false],
      [['replay', '--help'], false],
      [['--version'], false],
      [['sweep', '--v1', '1.32.2'], false],
      [['merge', 'a', 'b'], false],
      [['explore'], false],
      [['help'], false],
    ];
    for (const [args, expected] of cases) expect([args, runsCases(args)]).toEqual([args, expected]);
    // A sweep gets a sweep worker instead (probe/sweep/pool.ts adopts it).
    for (const [args, expected] of [[['sweep', '--v1', '1.32.2'], true], [['sweep', '--help'], false], [[], false], [['replay', 'x'], false]] as const) {
      expect([args, runsSweep(args)]).toEqual([args, expected]);
    }
  });
});

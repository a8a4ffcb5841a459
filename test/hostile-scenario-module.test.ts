// Issue 20: a .ts/.mts scenario module is code. Without --allow-scenario-code the probe refuses it before
// anything runs; trusted, it still cannot reach out of its folder while it is bundled, nor out of its child
// Node when it runs. Every test here is a real attempt of one escape, as an attacker's file would make it.
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { MAX_INPUT_BYTES } from '../probe/io/files.ts';
import { bundleScenarioModule, SCENARIO_HEAP_MIB } from '../probe/io/scenario-module.ts';
import { LAUNCHER, ROOT } from './helpers/cli.ts';
import { runMain, type MainRun } from './helpers/main.ts';
import { scenarioLoaderOf, until } from './helpers/processes.ts';

const HOSTILE = join(ROOT, 'test', 'fixtures', 'hostile');
const scenario = { shape: 'mine', tool: { name: 't', inputSchema: { type: 'object' } }, result: { content: [{ type: 'text', text: 'x' }] }, expected: { 'v1/warm': 'returned' } };
const SCENARIO = JSON.stringify(scenario);
const SECRET = 'the-secret-of-a-file-outside-the-folder';

/** A temporary folder: `in/` is the scenario folder, `secret.txt` a file beside it (outside it). */
function folder() {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-hostile-'));
  mkdirSync(join(dir, 'in'));
  writeFileSync(join(dir, 'secret.txt'), SECRET);
  const at = (name: string) => join(dir, name);
  return {
    dir,
    at,
    file(name: string, text: string) {
      writeFileSync(at(name), text);
      return at(name);
    },
  };
}

const run = (f: ReturnType<typeof folder>, ...more: string[]) => runMain(['--scenarios', f.at('in'), '--allow-scenario-code', '--case', 'mine', '--out', f.at('out.json'), ...more]);

function expectRefused(result: MainRun, message: RegExp, f: ReturnType<typeof folder>): void {
  expect(result.stderr).toMatch(message);
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(result.stderr).not.toContain(SECRET);
  expect(result.stdout).toBe('');
  expect(result.code).toBe(2);
  expect(readdirSync(f.dir)).not.toContain('out.json');
}

/** Whether a process is alive (signal 0 only asks). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs the shipped command on `f`'s module, SIGKILLs the probe once the module has had time to run
 * (killed before, the first design's child still ended), and waits for its loader to end: true when it did
 * within 15 s.
 */
async function loaderEndsAfterProbeIsKilled(f: ReturnType<typeof folder>): Promise<true> {
  const probe = spawn(process.execPath, [LAUNCHER, '--scenarios', f.at('in'), '--allow-scenario-code', '--case', 'mine', '--out', f.at('out.json')], { stdio: 'ignore' });
  const loader = await until(() => scenarioLoaderOf(probe.pid!), 20_000);
  onTestFinished(() => void (alive(loader) && process.kill(loader, 'SIGKILL')));
  await new Promise((resolve) => setTimeout(resolve, 2000));
  probe.kill('SIGKILL');
  await once(probe, 'exit');
  return until(() => (alive(loader) ? undefined : true), 15_000);
}

/** A TCP listener on 127.0.0.1 that counts who connects: a module that ran at all reaches it. */
async function listener() {
  let connections = 0;
  const server = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  onTestFinished(() => void server.close());
  return { port: (server.address() as { port: number }).port, connections: () => connections };
}


/**
 * The shipped command in a real process. `--inspect-port=0`: were the inspector opened, it would listen
 * on a free port instead of 9229 (other tests and programs here may hold 9229); whether it opens is the
 * same, and Node says so on stderr ("Debugger listening on ws://…").
 */
function launch(args: string[]) {
  const probe = spawn(process.execPath, ['--inspect-port=0', LAUNCHER, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: '', NO_COLOR: '1' } });
  let stderr = '';
  probe.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  probe.stdout.resume();
  onTestFinished(() => void (probe.exitCode === null && probe.signalCode === null && probe.kill('SIGKILL')));
  return { probe, stderr: () => stderr };
}

describe('a .ts scenario module runs only with --allow-scenario-code', () => {
  it('without it, a folder holding one is refused: exit 2, one line, and the module never ran', async () => {
    const f = folder();
    const watch = await listener();
    f.file('in/a.json', SCENARIO);
    f.file('in/b.ts', `import { connect } from 'node:net';\nconnect(${watch.port}, '127.0.0.1');\nawait new Promise((r) => setTimeout(r, 500));\nexport default ${JSON.stringify({ ...scenario, shape: 'other' })};\n`);
    const result = await runMain(['--scenarios', f.at('in'), '--out', f.at('out.json')]);
    expectRefused(result, /--scenarios .*in: b\.ts is a TypeScript scenario module, which is code: it runs only with --allow-scenario-code \(JSON scenario files need no trust\)$/m, f);
    expect(watch.connections()).toBe(0);
  });

  it('with it, the same module runs (and reaches the network: Node 20 does not restrict it)', async () => {
    const f = folder();
    const watch = await listener();
    f.file('in/b.ts', `import { connect } from 'node:net';\nconnect(${watch.port}, '127.0.0.1');\nawait new Promise((r) => setTimeout(r, 500));\nexport default ${SCENARIO};\n`);
    const result = await run(f);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(watch.connections()).toBe(1);
  }, 20_000);
});

describe.runIf(process.platform === 'linux')("the probe's inspector cannot be opened by a SIGUSR1", () => {
  it('a trusted module that sends SIGUSR1 to the probe opens no inspector (the module cannot signal)', async () => {
    const f = folder();
    const { probe, stderr } = launch(['--scenarios', join(HOSTILE, 'signal-parent'), '--allow-scenario-code', '--case', 'hostile-*', '--out', f.at('out.json')]);
    const [code] = (await once(probe, 'exit')) as [number | null];
    expect(stderr()).not.toContain('Debugger listening');
    expect(stderr()).toMatch(/inspector\.ts: cannot load the scenario module \(it threw at import: a scenario module cannot signal processes/);
    expect(code).toBe(2);
  }, 30_000);

  it('a SIGUSR1 from outside while a module loads opens no inspector in the CLI', async () => {
    const { probe, stderr } = launch(['--scenarios', join(HOSTILE, 'loops'), '--allow-scenario-code', '--out', join(folder().dir, 'out.json')]);
    await until(() => scenarioLoaderOf(probe.pid!), 20_000);
    probe.kill('SIGUSR1');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    probe.kill('SIGTERM');
    await once(probe, 'exit');
    expect(stderr()).not.toContain('Debugger listening');
  }, 30_000);

  it('a SIGUSR1 while a module loads opens no inspector in a program using the loader as a library', async () => {
    const f = folder();
    // The loader alone, without the CLI's entry (which ignores SIGUSR1 for its whole life).
    const { build } = await import('esbuild');
    const program = f.at('program.mjs');
    await build({
      stdin: {
        contents: `import { loadUserScenarios } from ${JSON.stringify(join(ROOT, 'probe', 'io', 'user-scenarios.ts'))};\nawait loadUserScenarios(${JSON.stringify(join(HOSTILE, 'loops'))}, 'loops', new Set(), { allowCode: true });\n`,
        resolveDir: ROOT,
        loader: 'ts',
      },
      bundle: true,
      format: 'esm',
      platform: 'node',
      // The pinned packages stay where they are (esbuild's binary cannot be bundled), by absolute path.
      plugins: [
        {
          name: 'from-the-checkout',
          setup(setup) {
            setup.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('node:') ? { external: true } : { path: createRequire(join(ROOT, 'package.json')).resolve(args.path), external: true }));
          },
        },
      ],
      outfile: program,
      logLevel: 'silent',
    });
    const child = spawn(process.execPath, ['--inspect-port=0', program], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    onTestFinished(() => void (child.exitCode === null && child.signalCode === null && child.kill('SIGKILL')));
    await until(() => scenarioLoaderOf(child.pid!), 20_000);
    child.kill('SIGUSR1');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    child.kill('SIGTERM');
    await once(child, 'exit');
    expect(stderr).not.toContain('Debugger listening');
  }, 30_000);
});

describe('bundling reads only files inside the scenario folder', () => {
  it('refuses an absolute import of a file outside it (with { type: "text" } would inline it)', async () => {
    const f = folder();
    f.file('in/a.ts', `import secret from ${JSON.stringify(f.at('secret.txt'))} with { type: 'text' };\nexport default { ...${SCENARIO}, title: secret };\n`);
    expectRefused(await run(f), /in\/a\.ts: cannot load the scenario module \(it imports '.*secret\.txt', an absolute path; a scenario module imports only files inside its folder/, f);
  });

  it('refuses /etc/passwd', async () => {
    const f = folder();
    f.file('in/a.ts', `import secret from '/etc/passwd' with { type: 'text' };\nexport default { ...${SCENARIO}, title: secret };\n`);
    expectRefused(await run(f), /in\/a\.ts: cannot load the scenario module \(it imports '\/etc\/passwd', an absolute path/, f);
  });

  it('refuses a relative import that climbs out of the folder', async () => {
    const f = folder();
    f.file('in/a.ts', `import secret from '../secret.txt' with { type: 'text' };\nexport default { ...${SCENARIO}, title: secret };\n`);
    expectRefused(await run(f), /in\/a\.ts: cannot load the scenario module \(it imports '\.\.\/secret\.txt', outside the scenario folder/, f);
  });

  it('refuses an import through a symbolic link inside the folder to a file outside it', async () => {
    const f = folder();
    symlinkSync(f.at('secret.txt'), f.at('in/link.txt'));
    f.file('in/a.ts', `import secret from './link.txt' with { type: 'text' };\nexport default { ...${SCENARIO}, title: secret };\n`);
    expectRefused(await run(f), /in\/a\.ts: cannot load the scenario module \(it imports '\.\/link\.txt', a symbolic link to .*secret\.txt, outside the scenario folder/, f);
  });

  it('refuses an import of /dev/zero through a symbolic link (it would grow the bundle without end)', async () => {
    const f = folder();
    symlinkSync('/dev/zero', f.at('in/zero.txt'));
    f.file('in/a.ts', `import zero from './zero.txt' with { type: 'text' };\nexport default { ...${SCENARIO}, title: zero };\n`);
    expectRefused(await run(f), /in\/a\.ts: cannot load the scenario module \(it imports '\.\/zero\.txt', a symbolic link to \/dev\/zero, outside the scenario folder/, f);
  });

  it('refuses an import of a FIFO inside the folder (reading it would wait for a writer forever)', async () => {
    const f = folder();
    execFileSync('mkfifo', [f.at('in/pipe.txt')]);
    f.file('in/a.ts', `import text from './pipe.txt' with { type: 'text' };\nexport default { ...${SCENARIO}, title: text };\n`);
    expectRefused(await run(f), /in\/a\.ts: cannot load the scenario module \(pipe\.txt: the file it imports is a FIFO, not a regular file/, f);
  }, 20_000);

  it('refuses an imported file over 64 MiB', async () => {
    const f = folder();
    writeFileSync(f.at('in/big.txt'), '');
    truncateSync(f.at('in/big.txt'), MAX_INPUT_BYTES + 1); // sparse: no disk used
    f.file('in/a.ts', `import big from './big.txt' with { type: 'text' };\nexport default { ...${SCENARIO}, title: String(big.length) };\n`);
    expectRefused(await run(f), /in\/a\.ts: cannot load the scenario module \(big\.txt: the file it imports is \d+ bytes, over the limit/, f);
  }, 30_000);

  it('refuses imported files that are together over 64 MiB', async () => {
    const f = folder();
    for (const name of ['one.txt', 'two.txt']) {
      writeFileSync(f.at(`in/${name}`), '');
      truncateSync(f.at(`in/${name}`), 33 * 1024 * 1024);
    }
    f.file('in/a.ts', `import one from './one.txt' with { type: 'text' };\nimport two from './two.txt' with { type: 'text' };\nexport default { ...${SCENARIO}, title: String(one.length + two.length) };\n`);
    expectRefused(await run(f), /in\/a\.ts: cannot load the scenario module \((one|two)\.txt: the files of the bundle are together over the limit of 67108864 bytes/, f);
  }, 30_000);

  it('refuses a package import (it would be resolved from folders above the scenario folder)', async () => {
    const f = folder();
    f.file('in/a.ts', `import { z } from 'zod';\nexport default { ...${SCENARIO}, title: typeof z };\n`);
    expectRefused(await run(f), /in\/a\.ts: cannot load the scenario module \(it imports 'zod', a package;/, f);
  });

  it('stops bundling at its time limit', async () => {
    const f = folder();
    const lines = Array.from({ length: 200_000 }, (_, i) => `export const value${i} = { n: ${i}, text: 'line ${i}' };`);
    const entry = f.file('in/a.ts', `${lines.join('\n')}\nexport default ${SCENARIO};\n`);
    await expect(bundleScenarioModule(entry, f.at('in'), 'in/a.ts', 20)).rejects.toThrow(/^in\/a\.ts: cannot load the scenario module \(it did not finish bundling within 0\.02 s\)$/);
  });
});

describe('scenario files are read only from inside the folder', () => {
  it('refuses a .json scenario file that is a symbolic link to a file outside it', async () => {
    const f = folder();
    f.file('outside.json', SCENARIO);
    symlinkSync(f.at('outside.json'), f.at('in/a.json'));
    expectRefused(await runMain(['--scenarios', f.at('in'), '--out', f.at('out.json')]), /in\/a\.json: is a symbolic link to .*outside\.json, outside the scenario folder/, f);
  });

  it('refuses a .ts scenario module that is a symbolic link to a file outside it', async () => {
    const f = folder();
    f.file('outside.ts', `export default ${SCENARIO};\n`);
    symlinkSync(f.at('outside.ts'), f.at('in/a.ts'));
    expectRefused(await run(f), /in\/a\.ts: is a symbolic link to .*outside\.ts, outside the scenario folder/, f);
  });

  it('follows a symbolic link that stays inside the folder (an alias of a file already handed over)', async () => {
    const f = folder();
    mkdirSync(f.at('in/shared'));
    f.file('in/shared/mine.data', SCENARIO);
    symlinkSync('shared/mine.data', f.at('in/a.json'));
    const result = await runMain(['--scenarios', f.at('in'), '--case', 'mine', '--out', f.at('out.json')]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  }, 20_000);
});

describe('what a trusted module cannot do in its child Node', () => {
  it.runIf(process.platform === 'linux')('cannot signal another process of the user', async () => {
    const f = folder();
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
    onTestFinished(() => void sleeper.kill('SIGKILL'));
    f.file('in/a.ts', `process.kill(${sleeper.pid}, 'SIGKILL');\nexport default ${SCENARIO};\n`);
    expectRefused(await run(f), /in\/a\.ts: cannot load the scenario module \(it threw at import: a scenario module cannot signal processes/, f);
    expect(sleeper.exitCode === null && sleeper.signalCode === null).toBe(true);
  }, 20_000);

  it.runIf(process.platform === 'linux')("cannot signal through node:process's named export either", async () => {
    const f = folder();
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
    onTestFinished(() => void sleeper.kill('SIGKILL'));
    f.file('in/a.ts', `import { kill } from 'node:process';\nkill(${sleeper.pid}, 'SIGKILL');\nexport default ${SCENARIO};\n`);
    expectRefused(await run(f), /it threw at import: a scenario module cannot signal processes/, f);
    expect(sleeper.exitCode === null && sleeper.signalCode === null).toBe(true);
  }, 20_000);

  it.runIf(process.platform === 'linux')("cannot signal through the native handle of a ChildProcess it never spawned", async () => {
    // Signal 0 only asks whether the target exists: were the route open, the module reports the answers
    // (0: pid 0, the process group, was reached) instead of the refusal, and nothing was sent.
    const f = folder();
    f.file(
      'in/a.ts',
      `import { ChildProcess } from 'node:child_process';\nconst answers: unknown[] = [];\nfor (let i = 0; i < 20; i++) answers.push((new ChildProcess() as unknown as { _handle: { kill(signal: number): number } })._handle.kill(0));\nthrow new Error('reached: ' + answers.join(','));\n`,
    );
    expectRefused(await run(f), /in\/a\.ts: cannot load the scenario module \(it threw at import: a scenario module cannot signal processes/, f);
  }, 20_000);

  it.runIf(process.platform === 'linux')('runs in a process group and session of its own, not the probe\'s', async () => {
    const f = folder();
    f.file('in/a.ts', `for (;;) {}\nexport default ${SCENARIO};\n`);
    const probe = spawn(process.execPath, [LAUNCHER, '--scenarios', join(f.dir, 'in'), '--allow-scenario-code', '--out', join(f.dir, 'out.json')], { stdio: 'ignore' });
    onTestFinished(() => void probe.kill('SIGKILL'));
    const loader = await until(() => scenarioLoaderOf(probe.pid!), 20_000);
    onTestFinished(() => void process.kill(loader, 'SIGKILL'));
    // /proc/PID/stat: fields 5 and 6 are the process group and the session (after the parenthesised name).
    const groupAndSession = (pid: number) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ').slice(2, 4);
    const [group, session] = groupAndSession(loader);
    const [probeGroup, probeSession] = groupAndSession(probe.pid!);
    // The session's leader is the spawned process (coreutils' timeout, or the loader itself), the group its.
    expect(group).toBe(session);
    expect(group).not.toBe(probeGroup);
    expect(session).not.toBe(probeSession);
  }, 30_000);

  // A second hostile review of issue 20: through the IPC channel the loader had, a module crashed the
  // probe (Node's internal NODE_HANDLE messages), forged a malformed reply (a TypeError, exit 1), or handed
  // it a listening socket (the probe never exited). There is no channel now, and stdout is only text.
  it.each([
    ["send Node's internal NODE_HANDLE_NACK message", `(process as unknown as { send(m: unknown): void }).send({ cmd: 'NODE_HANDLE_NACK' });\nexport default ${SCENARIO};\n`, /it threw at import: .*send is not a function/],
    ['forge a malformed reply on stdout', `process.stdout.write('value\\nnull\\n');\nexport default ${SCENARIO};\n`, /a\.ts \(its default export\): not valid JSON/],
    ['forge a reply of its kind line only', `process.stdout.write('error\\n');\nexport default ${SCENARIO};\n`, /it printed to stdout at import: 'error'/],
  ])('cannot %s: exit 2, one line', async (_what, source, message) => {
    const f = folder();
    f.file('in/a.ts', source);
    const result = await run(f);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.code).toBe(2);
  }, 20_000);

  it.runIf(process.platform === 'linux')('cannot hand the probe a listening socket, or keep it from exiting', async () => {
    const f = folder();
    f.file('in/a.ts', `import net from 'node:net';\nconst server = net.createServer();\nawait new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));\n(process as unknown as { send(m: unknown, h: unknown): void }).send({ kind: 'none' }, server);\nexport default ${SCENARIO};\n`);
    const probe = spawn(process.execPath, [LAUNCHER, '--scenarios', f.at('in'), '--allow-scenario-code', '--case', 'mine', '--out', f.at('out.json')], { stdio: 'ignore' });
    onTestFinished(() => void probe.kill('SIGKILL'));
    const [code] = (await once(probe, 'exit')) as [number | null];
    expect(code).toBe(2);
  }, 30_000);

  it.runIf(process.platform === 'linux')('cannot outlive the probe: killed with SIGKILL, its loader still ends at the limit', async () => {
    const f = folder();
    // What the first design relied on to end the child was the module's to undo: its disconnect listener,
    // and process.exit (fixed now, so the assignment may throw).
    f.file('in/a.ts', `process.removeAllListeners('disconnect');\ntry { (process as unknown as { exit: unknown }).exit = () => {}; } catch {}\nsetInterval(() => {}, 1000);\nawait new Promise(() => {});\nexport default ${SCENARIO};\n`);
    expect(await loaderEndsAfterProbeIsKilled(f)).toBe(true);
  }, 45_000);

  // A third hostile review: process._debugProcess(pid) sends SIGUSR1 to any pid (-1: every process of the
  // user), unchecked by the permission model. It opened another Node's inspector, which the module then
  // drove over the network, and it ended the timeout above the child.
  it.runIf(process.platform === 'linux')("cannot open another Node process's inspector with process._debugProcess", async () => {
    const f = folder();
    const victim = spawn(process.execPath, ['--inspect-port=0', '-e', 'setInterval(() => {}, 1000)'], { stdio: ['ignore', 'ignore', 'pipe'] });
    onTestFinished(() => void victim.kill('SIGKILL'));
    let said = '';
    victim.stderr!.on('data', (chunk: Buffer) => (said += chunk.toString()));
    await new Promise((resolve) => setTimeout(resolve, 300));
    f.file('in/a.ts', `(process as unknown as { _debugProcess(pid: number): void })._debugProcess(${victim.pid});\nexport default ${SCENARIO};\n`);
    expectRefused(await run(f), /it threw at import: a scenario module cannot signal processes/, f);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(said).not.toContain('Debugger listening');
    expect(victim.exitCode).toBeNull();
  }, 20_000);

  it.runIf(process.platform === 'linux')('cannot end the timeout above it, and so still ends after a SIGKILLed probe', async () => {
    const f = folder();
    f.file('in/a.ts', `try { (process as unknown as { _debugProcess(pid: number): void })._debugProcess(process.ppid); } catch {}\nsetInterval(() => {}, 1000);\nawait new Promise(() => {});\nexport default ${SCENARIO};\n`);
    expect(await loaderEndsAfterProbeIsKilled(f)).toBe(true);
  }, 45_000);

  it('says a module that prints over 64 MiB printed, not that its export is too large', async () => {
    const f = folder();
    f.file('in/a.ts', `process.stdout.write('x'.repeat(${MAX_INPUT_BYTES} + 1024));\nexport default ${SCENARIO};\n`);
    expectRefused(await run(f), /it printed over 67108864 bytes to stdout at import: 'xxx/, f);
  }, 30_000);

  it('cannot stop the runner from ending the child: process.exit is fixed', async () => {
    const f = folder();
    f.file('in/a.ts', `(process as unknown as { exit: unknown }).exit = () => {};\nexport default ${SCENARIO};\n`);
    expectRefused(await run(f), /it threw at import: Cannot assign to read only property 'exit'/, f);
  }, 20_000);

  it.runIf(process.platform === 'linux')('cannot listen on or connect to a Unix-domain socket', async () => {
    const f = folder();
    const socket = join(f.dir, 'service.sock');
    const service = createServer((client) => client.destroy());
    service.listen(socket);
    await once(service, 'listening');
    onTestFinished(() => void service.close());
    const planted = join(f.dir, 'planted.sock');
    f.file('in/a.ts', `import net from 'node:net';\nnet.createServer().listen(${JSON.stringify(planted)});\nexport default ${SCENARIO};\n`);
    expectRefused(await run(f), /it threw at import: a scenario module cannot use Unix-domain sockets/, f);
    expect(readdirSync(f.dir)).not.toContain('planted.sock');
    f.file('in/a.ts', `import net from 'node:net';\nnet.connect(${JSON.stringify(socket)});\nexport default ${SCENARIO};\n`);
    expectRefused(await run(f), /it threw at import: a scenario module cannot use Unix-domain sockets/, f);
  }, 30_000);

  it('cannot write trace files', async () => {
    const f = folder();
    f.file('in/a.ts', `import traceEvents from 'node:trace_events';\ntraceEvents.createTracing({ categories: ['node.console'] }).enable();\nconsole.count('written');\nexport default ${SCENARIO};\n`);
    expectRefused(await run(f), /it threw at import: a scenario module cannot write trace files/, f);
    expect(readdirSync(join(f.dir, 'in')).filter((name) => name.startsWith('node_trace'))).toEqual([]);
  }, 20_000);

  it.each([
    ['write a file', `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(join(tmpdir(), 'mcp-sdk-probe-hostile-written'))}, 'x');`],
    ['start a process', `import { execFileSync } from 'node:child_process';\nexecFileSync('true');`],
    ['start a worker', `import { Worker } from 'node:worker_threads';\nnew Worker('1', { eval: true });`],
    ['open its own inspector', `import { open } from 'node:inspector';\nopen(0);`],
    ['reach process.binding', `(process as unknown as { binding(name: string): unknown }).binding('fs');`],
  ])('cannot %s', async (_what, source) => {
    const f = folder();
    f.file('in/a.ts', `${source}\nexport default ${SCENARIO};\n`);
    expectRefused(await run(f), /in\/a\.ts: cannot load the scenario module \(it threw at import: .*(Access to this API has been restricted|process\.binding)/, f);
  }, 20_000);

  it(`runs with a heap of ${SCENARIO_HEAP_MIB} MiB`, async () => {
    const f = folder();
    f.file('in/a.ts', `const kept: number[][] = [];\nfor (;;) kept.push(new Array(1_000_000).fill(1));\nexport default ${SCENARIO};\n`);
    expectRefused(await run(f), new RegExp(`in/a\\.ts: cannot load the scenario module \\(it ran out of memory: the limit is ${SCENARIO_HEAP_MIB} MiB\\)`), f);
  }, 30_000);
});

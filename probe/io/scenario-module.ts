// TypeScript scenario files (--scenarios DIR) are code the user wrote, so they run away from the probe:
// esbuild bundles the file (and whatever it imports) into one ES module, whatever package.json or
// tsconfig.json is near it, and a child Node process imports that bundle under Node's permission model
// (no file system, no child processes, no workers; the network is not restricted) with a time limit.
// The child sends the default export back as JSON, which the parent validates like a JSON scenario file.
// Whatever the module does at import (exit, throw, loop, print) is an InputError naming the file.
import { spawn, type ChildProcess } from 'node:child_process';
import { basename, dirname } from 'node:path';
import { InputError } from '../core/errors.ts';
import { MAX_INPUT_BYTES, parseJsonText, readInputText } from './files.ts';

/** How long a scenario module may take to load (bundle excluded) before it is stopped. */
export const SCENARIO_LOAD_TIMEOUT_MS = 10_000;

/** What the child runs: read the bundle from stdin, import it, send its default export as JSON. */
const RUNNER = `
// The probe gone, nobody waits for the answer. Unref'd: the channel alone must not keep the child alive
// (a module whose top-level await never settles ends with status 13, as it would outside).
process.on('disconnect', () => process.exit(1));
process.channel.unref();
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const source = Buffer.concat(chunks).toString('utf8');
const reply = (message) => process.send(message, () => process.exit(0));
const firstLine = (error) => String(error?.message ?? error).split('\\n')[0];
let module;
try {
  module = await import('data:text/javascript;base64,' + Buffer.from(source).toString('base64'));
} catch (error) {
  reply({ kind: 'error', message: 'it threw at import: ' + firstLine(error) });
}
if (module) {
  let json;
  let problem;
  try {
    json = JSON.stringify(module.default);
  } catch (error) {
    problem = firstLine(error);
  }
  if (problem === undefined && json === undefined && module.default !== undefined) problem = 'a ' + typeof module.default;
  if (problem !== undefined) reply({ kind: 'error', message: 'its default export is not JSON (' + problem + ')' });
  else reply(json === undefined ? { kind: 'none' } : { kind: 'value', json });
}
`;

/** Node 20 calls the permission model experimental; later releases name the flag --permission. */
function permissionFlags(): string[] {
  const flags = process.allowedNodeEnvironmentFlags;
  if (flags.has('--permission')) return ['--permission'];
  if (flags.has('--experimental-permission')) return ['--experimental-permission'];
  return [];
}

type Reply = { kind: 'none' } | { kind: 'value'; json: string } | { kind: 'error'; message: string };

/**
 * Loader children alive now. A module looping at import never lets its child read anything (not even the
 * closed IPC channel), so if the probe is stopped by a signal meanwhile, the child would outlive it,
 * spinning (`kill -TERM` of the probe, a CI job cancelled): the probe kills them first, then takes the
 * signal as if it had no handler (its exit status says which signal). A SIGKILL cannot be caught; a
 * child then ends at its next turn of the event loop, on the closed channel.
 */
const liveChildren = new Set<ChildProcess>();
const STOP_SIGNALS: readonly NodeJS.Signals[] = process.platform === 'win32' ? ['SIGINT', 'SIGTERM'] : ['SIGINT', 'SIGTERM', 'SIGHUP'];

function stopChildren(signal: NodeJS.Signals): void {
  for (const child of liveChildren) child.kill('SIGKILL');
  for (const name of STOP_SIGNALS) process.off(name, stopChildren);
  // Another listener (a program using the probe as a library) decides what the signal does; without one,
  // its default: the process ends by it.
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

function watchChild(child: ChildProcess): void {
  if (liveChildren.size === 0) for (const name of STOP_SIGNALS) process.on(name, stopChildren);
  liveChildren.add(child);
  const forget = () => {
    if (!liveChildren.delete(child)) return;
    if (liveChildren.size === 0) for (const name of STOP_SIGNALS) process.off(name, stopChildren);
  };
  child.once('close', forget);
  child.once('error', forget);
}

const KEEP = 4096;
const firstLine = (text: string) => text.trim().split('\n')[0]?.slice(0, 200) ?? '';

function runInChild(code: string, cwd: string, shown: string): Promise<Reply> {
  return new Promise((resolvePromise, reject) => {
    const fail = (reason: string) => reject(new InputError(`${shown}: cannot load the scenario module (${reason})`));
    const child = spawn(process.execPath, [...permissionFlags(), '--no-warnings', '--input-type=module', '-e', RUNNER], {
      cwd,
      env: {},
      stdio: ['pipe', 'pipe', 'pipe', 'ipc'],
    });
    watchChild(child);
    let stdout = '';
    let stderr = '';
    let reply: Reply | undefined;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, SCENARIO_LOAD_TIMEOUT_MS);
    child.stdout!.on('data', (chunk: Buffer) => {
      if (stdout.length < KEEP) stdout += chunk.toString('utf8');
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      if (stderr.length < KEEP) stderr += chunk.toString('utf8');
    });
    child.on('message', (message: Reply) => {
      reply ??= message;
    });
    child.stdin!.on('error', () => {}); // a module that exits at once closes the pipe early; 'close' reports it
    child.on('error', (error) => {
      clearTimeout(timer);
      fail(`cannot start Node: ${error.message}`);
    });
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      if (timedOut) return fail(`it did not finish loading within ${SCENARIO_LOAD_TIMEOUT_MS / 1000} s`);
      if (stdout.trim() !== '') return fail(`it printed to stdout at import: '${firstLine(stdout)}'; a scenario module only exports its scenarios`);
      if (reply) return resolvePromise(reply);
      // Node's exit code 13: the module's top-level await never settled (nothing was left to run).
      if (status === 13 && !signal) return fail('its top-level await never settles');
      const why = signal ? `signal ${signal}` : `status ${status}`;
      fail(`it ended the process (${why}) at import${stderr.trim() ? `: ${firstLine(stderr)}` : ''}`);
    });
    child.stdin!.end(code);
  });
}

/** Bundles one scenario module into a single ES module, whatever package.json or tsconfig.json is near it. */
async function bundle(path: string, shown: string): Promise<string> {
  const source = readInputText(path, 'scenario module');
  if (source === undefined) throw new InputError(`${shown}: cannot read the scenario module (ENOENT)`);
  const { build } = await import('esbuild');
  try {
    const result = await build({
      stdin: { contents: source, resolveDir: dirname(path), sourcefile: basename(path), loader: 'ts' },
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      write: false,
      logLevel: 'silent',
      tsconfigRaw: {},
    });
    return result.outputFiles[0]?.text ?? '';
  } catch (error) {
    const first = (error as { errors?: { text: string; location?: { line: number } | null }[] }).errors?.[0];
    const reason = first ? `${first.text}${first.location ? ` (line ${first.location.line})` : ''}` : firstLine((error as Error).message);
    throw new InputError(`${shown}: cannot load the scenario module (${reason})`);
  }
}

/** The default export of a TypeScript scenario module, as JSON (undefined when it has none). */
export async function loadScenarioModule(path: string, shown: string): Promise<unknown> {
  const code = await bundle(path, shown);
  const reply = await runInChild(code, dirname(path), shown);
  if (reply.kind === 'error') throw new InputError(`${shown}: cannot load the scenario module (${reply.message})`);
  if (reply.kind === 'none') return undefined;
  if (reply.json.length > MAX_INPUT_BYTES) throw new InputError(`${shown}: the scenario module's default export is over ${MAX_INPUT_BYTES} bytes (64 MiB) as JSON`);
  return parseJsonText(reply.json, `${shown} (its default export)`);
}

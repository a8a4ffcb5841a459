// TypeScript scenario files (--scenarios DIR) are code the user wrote, so they run only when the user
// says they trust them (--allow-scenario-code, checked in user-scenarios.ts), and even then away from the
// probe (issue 20):
// - esbuild bundles the file and what it imports into one ES module, but every path goes through the
//   plugin below: only relative imports that stay inside the scenario folder (its realpath, symbolic links
//   resolved) and Node's built-ins; each file is read by the plugin, a regular file within the byte limits,
//   never by esbuild, and the whole bundling has a time limit;
// - a child Node process imports that bundle under Node's permission model (no file system, no child
//   processes, no workers, no addons, no inspector; the network is not restricted on Node 20), with an
//   empty environment and an empty working folder, a heap limit and a time limit that holds even if the
//   probe dies (coreutils timeout), after taking from it the functions that signal processes, use
//   Unix-domain sockets or write trace files (see RUNNER), and with no IPC channel;
// - while a child lives, the probe ignores SIGUSR1, which would open its inspector (Node 20 has no
//   --disable-sigusr1): the CLI does so for its whole life (commands/main.ts, bin/launch.mjs).
// The child prints the default export as JSON, which the parent validates like a JSON scenario file.
// Whatever the module does at import (exit, throw, loop, print) is an InputError naming the file.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isBuiltin } from 'node:module';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import type { Loader, Message, Plugin } from 'esbuild';
import { InputError } from '../core/errors.ts';
import { MAX_INPUT_BYTES, parseJsonText, readInputText } from './files.ts';

/** How long a scenario module may take to load (bundle excluded) before it is stopped. */
export const SCENARIO_LOAD_TIMEOUT_MS = 10_000;
/** How long bundling one scenario module (and what it imports) may take. */
export const SCENARIO_BUNDLE_TIMEOUT_MS = 10_000;
/** The most the files of one scenario module's bundle (it and everything it imports) may hold together. */
export const MAX_BUNDLE_INPUT_BYTES = MAX_INPUT_BYTES;
/** The loader child's V8 heap limit: a bundle of 64 MiB of source and its 64 MiB default export fit. */
export const SCENARIO_HEAP_MIB = 512;

/**
 * What the child runs: read the bundle from stdin, import it, print its default export as JSON on stdout,
 * under a first line naming the reply's kind (`none`, `value`, `error`). There is no IPC channel: through
 * one, a module could hand the probe a listening socket (which then kept the probe alive), or send Node's
 * internal NODE_HANDLE messages, which crash the probe (a hostile review of issue 20). Whatever arrives
 * on stdout is only text the parent parses and validates; a module that prints, or forges a reply, makes
 * its own load fail and gains nothing: its default export is its to choose anyway.
 */
const RUNNER = `
// The permission model (Node 20) leaves open what kill(2) reaches, Unix-domain sockets and trace files,
// and process.binding closed. Each is taken from the module before it runs, by replacing the one function
// every path to it goes through (fixed, so it cannot be put back):
// - process.kill and process._kill, process._debugProcess (a SIGUSR1 to any pid, -1 included: it opened
//   another Node's inspector, and ended coreutils' timeout above the child), os.setPriority, and the kill
//   of the native process handle that every ChildProcess makes in its constructor, spawned or not (the
//   permission model refuses only the spawn; an unspawned handle's kill signals pid 0, the process group);
// - bind and connect of the native pipe handle (stdin's: a pipe), which every Unix-domain socket uses,
//   listening or connecting (a module reached local services, and made socket files anywhere);
// - trace_events' createTracing, whose agent writes trace files into the working folder;
// - process.exit and process.reallyExit, kept as they are, so a module cannot stop the runner from ending
//   the child once it has replied.
// Named imports of node: modules are copies, hence the sync.
import { ChildProcess } from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import os from 'node:os';
import traceEvents from 'node:trace_events';
const refused = (what) => () => { throw new Error('a scenario module cannot ' + what); };
const fix = (owner, name, value) => Object.defineProperty(owner, name, { value, writable: false, configurable: false });
const noSignal = refused('signal processes or change their priority');
for (const [owner, name] of [[process, 'kill'], [process, '_kill'], [process, '_debugProcess'], [process, '_debugEnd'], [os, 'setPriority'], [Object.getPrototypeOf(new ChildProcess()._handle), 'kill']]) fix(owner, name, noSignal);
const pipeHandle = Object.getPrototypeOf(process.stdin._handle);
for (const name of ['bind', 'connect']) fix(pipeHandle, name, refused('use Unix-domain sockets'));
fix(traceEvents, 'createTracing', refused('write trace files'));
fix(process, 'reallyExit', process.reallyExit);
fix(process, 'exit', process.exit);
syncBuiltinESMExports();
const write = process.stdout.write.bind(process.stdout);
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const source = Buffer.concat(chunks).toString('utf8');
const reply = (kind, text = '') => write(kind + '\\n' + text, () => process.exit(0));
const firstLine = (error) => String(error?.message ?? error).split('\\n')[0];
let module;
try {
  module = await import('data:text/javascript;base64,' + Buffer.from(source).toString('base64'));
} catch (error) {
  reply('error', 'it threw at import: ' + firstLine(error));
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
  if (problem !== undefined) reply('error', 'its default export is not JSON (' + problem + ')');
  else if (json === undefined) reply('none');
  else reply('value', json);
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
 * Loader children alive now. If the probe is stopped by a signal while one loads (`kill -TERM` of the
 * probe, a CI job cancelled), it kills their process groups first, then takes the signal as if it had no
 * handler (its exit status says which signal). A SIGKILL cannot be caught: then `timeout` ends the child
 * at its limit (TIMEOUT_COMMAND).
 */
const liveChildren = new Set<ChildProcess>();
const STOP_SIGNALS: readonly NodeJS.Signals[] = process.platform === 'win32' ? ['SIGINT', 'SIGTERM'] : ['SIGINT', 'SIGTERM', 'SIGHUP'];

function stopChildren(signal: NodeJS.Signals): void {
  for (const child of liveChildren) killGroup(child);
  for (const name of STOP_SIGNALS) process.off(name, stopChildren);
  // Another listener (a program using the probe as a library) decides what the signal does; without one,
  // its default: the process ends by it.
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

/**
 * Node opens its inspector on 127.0.0.1:9229 at a SIGUSR1 to it, and anyone who reaches that port runs code
 * in the process (Runtime.evaluate); a listener takes the place of that default (Node 20 has no
 * --disable-sigusr1). The CLI ignores the signal for its whole life; a program using the probe as a
 * library, only while a loader child lives (the child cannot signal, see RUNNER: this is the second wall).
 */
export function keepInspectorClosed(): void {}

function watchChild(child: ChildProcess): void {
  if (liveChildren.size === 0) {
    for (const name of STOP_SIGNALS) process.on(name, stopChildren);
    if (process.platform !== 'win32') process.on('SIGUSR1', keepInspectorClosed);
  }
  liveChildren.add(child);
  const forget = () => {
    if (!liveChildren.delete(child)) return;
    if (liveChildren.size > 0) return;
    for (const name of STOP_SIGNALS) process.off(name, stopChildren);
    process.off('SIGUSR1', keepInspectorClosed);
  };
  child.once('close', forget);
  child.once('error', forget);
}

const KEEP = 4096;
const firstLine = (text: string) => text.trim().split('\n')[0]?.slice(0, 200) ?? '';
/** The reply's kind line and the default export as JSON: what stdout may hold (the JSON at most 64 MiB). */
const MAX_REPLY_BYTES = MAX_INPUT_BYTES + 64;

/**
 * A wall that holds when the probe does not: coreutils' `timeout` kills the child at its limit even after
 * the probe itself was killed (SIGKILL, a crash), which nothing in the child can prevent (it cannot signal
 * `timeout`, see RUNNER). Where there is no `timeout` (not Linux), only the probe's own timer stops it.
 */
const TIMEOUT_COMMAND = ['/usr/bin/timeout', '/bin/timeout'].find((path) => existsSync(path));

/** The reply read from the child's stdout, or why it is not one. */
function parseReply(stdout: string): Reply | { kind: 'printed' } {
  const newline = stdout.indexOf('\n');
  const [kind, text] = newline < 0 ? [stdout, ''] : [stdout.slice(0, newline), stdout.slice(newline + 1)];
  if (kind === 'none' && text === '') return { kind };
  if (kind === 'value' && text !== '') return { kind, json: text };
  if (kind === 'error' && text !== '' && !text.includes('\n')) return { kind, message: text };
  return { kind: 'printed' };
}

function runInChild(code: string, shown: string): Promise<Reply> {
  return new Promise((resolvePromise, reject) => {
    const fail = (reason: string) => reject(new InputError(`${shown}: cannot load the scenario module (${reason})`));
    // An empty working folder of its own: nothing the child's Node writes by itself lands anywhere else.
    const cwd = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-module-'));
    const node = [process.execPath, ...permissionFlags(), `--max-old-space-size=${SCENARIO_HEAP_MIB}`, '--no-warnings', '--input-type=module', '-e', RUNNER];
    const wall = TIMEOUT_COMMAND ? [TIMEOUT_COMMAND, '-s', 'KILL', String(Math.ceil(SCENARIO_LOAD_TIMEOUT_MS / 1000) + 1)] : [];
    const [command, ...args] = [...wall, ...node] as [string, ...string[]];
    const child = spawn(command, args, {
      cwd,
      env: {},
      stdio: ['pipe', 'pipe', 'pipe'],
      // Its own session and process group, which the probe kills whole (timeout and Node together); were a
      // way to kill(2) left, pid 0 (the group) would name only the child, not the probe and whatever
      // started it (npm, a shell, a CI step).
      detached: true,
    });
    watchChild(child);
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = '';
    let tooLarge = false;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child);
    }, SCENARIO_LOAD_TIMEOUT_MS);
    child.stdout!.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes <= MAX_REPLY_BYTES) stdout.push(chunk);
      else if (!tooLarge) {
        tooLarge = true;
        killGroup(child);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      if (stderr.length < KEEP) stderr += chunk.toString('utf8');
    });
    child.stdin!.on('error', () => {}); // a module that exits at once closes the pipe early; 'close' reports it
    child.on('error', (error) => {
      clearTimeout(timer);
      rmSync(cwd, { recursive: true, force: true });
      fail(`cannot start Node: ${error.message}`);
    });
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      rmSync(cwd, { recursive: true, force: true });
      if (timedOut) return fail(`it did not finish loading within ${SCENARIO_LOAD_TIMEOUT_MS / 1000} s`);
      const text = Buffer.concat(stdout).toString('utf8');
      if (tooLarge && text.startsWith('value\n')) return fail(`its default export is over ${MAX_INPUT_BYTES} bytes (64 MiB) as JSON`);
      if (tooLarge) return fail(`it printed over ${MAX_INPUT_BYTES} bytes to stdout at import: '${firstLine(text)}'; a scenario module only exports its scenarios`);
      const reply = text === '' ? undefined : parseReply(text);
      if (reply?.kind === 'printed') return fail(`it printed to stdout at import: '${firstLine(text)}'; a scenario module only exports its scenarios`);
      if (reply && status === 0) return resolvePromise(reply);
      // Node's exit code 13: the module's top-level await never settled (nothing was left to run).
      if (status === 13 && !signal) return fail('its top-level await never settles');
      if (/heap limit|heap out of memory/.test(stderr)) return fail(`it ran out of memory: the limit is ${SCENARIO_HEAP_MIB} MiB`);
      const why = signal ? `signal ${signal}` : `status ${status}`;
      fail(`it ended the process (${why}) at import${stderr.trim() ? `: ${firstLine(stderr)}` : ''}`);
    });
    child.stdin!.end(code);
  });
}

/** The child's whole process group: `timeout` (when there is one) and the Node under it. */
function killGroup(child: ChildProcess): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL'); // already gone, or no process groups (Windows)
  }
}

const NAMESPACE = 'scenario-folder';
const LOADERS: Record<string, Loader> = { '.ts': 'ts', '.mts': 'ts', '.cts': 'ts', '.js': 'js', '.mjs': 'js', '.cjs': 'js', '.json': 'json' };
/** What an import may omit or write as .js, as TypeScript and esbuild allow: the candidates, in order. */
const CANDIDATES = (base: string): string[] => {
  const swapped = { '.js': '.ts', '.mjs': '.mts', '.cjs': '.cts' }[extname(base)];
  return [base, ...(swapped ? [base.slice(0, -extname(base).length) + swapped] : []), ...Object.keys(LOADERS).map((ext) => base + ext), ...Object.keys(LOADERS).map((ext) => join(base, `index${ext}`))];
};
const within = (root: string, path: string) => path === root || path.startsWith(root + sep);

/**
 * Confines a bundle to `root` (a realpath): esbuild resolves and reads nothing itself. Bare and absolute
 * specifiers are refused (a package would be resolved through folders above `root`, package.json files
 * esbuild would read itself); node: built-ins stay imports, which the child's permission model governs.
 */
function confinedTo(root: string, entry: string): Plugin {
  let left = MAX_BUNDLE_INPUT_BYTES;
  const shown = (path: string) => relative(root, path) || '.';
  const refuse = (specifier: string, why: string) => ({
    errors: [{ text: `it imports '${specifier}', ${why}; a scenario module imports only files inside its folder (by relative path) and node: built-ins` }],
  });
  return {
    name: 'scenario-folder',
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === 'entry-point') return { path: entry, namespace: NAMESPACE };
        const specifier = args.path;
        if (isBuiltin(specifier)) return { path: specifier, external: true };
        if (!/^\.\.?(\/|$)/.test(specifier)) return refuse(specifier, specifier.startsWith('/') ? 'an absolute path' : 'a package');
        const base = resolve(args.resolveDir, specifier);
        if (!within(root, base)) return refuse(specifier, 'outside the scenario folder');
        const found = CANDIDATES(base).find((candidate) => within(root, candidate) && statSync(candidate, { throwIfNoEntry: false })?.isDirectory() === false);
        if (!found) return { errors: [{ text: `Could not resolve "${specifier}"` }] };
        const real = realpathSync(found);
        if (!within(root, real)) return refuse(specifier, `a symbolic link to ${real}, outside the scenario folder`);
        return { path: real, namespace: NAMESPACE };
      });
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => {
        const loader = args.with.type === 'text' ? 'text' : args.with.type === 'json' ? 'json' : LOADERS[extname(args.path)];
        if (!loader) return { errors: [{ text: `${shown(args.path)} is not a .ts, .mts, .js, .mjs or .json file (import it with { type: 'text' } to have its text)` }] };
        let text: string | undefined;
        try {
          text = readInputText(args.path, args.path === entry ? 'scenario module' : 'file it imports');
        } catch (error) {
          if (!(error instanceof InputError)) throw error;
          return { errors: [{ text: `${shown(args.path)}: ${error.message.slice(args.path.length + 2)}` }] };
        }
        if (text === undefined) return { errors: [{ text: `Could not read "${shown(args.path)}" (ENOENT)` }] };
        if (Buffer.byteLength(text) > left) return { errors: [{ text: `${shown(args.path)}: the files of the bundle are together over the limit of ${MAX_BUNDLE_INPUT_BYTES} bytes (64 MiB)` }] };
        left -= Buffer.byteLength(text);
        return { contents: text, loader, resolveDir: dirname(args.path) };
      });
    },
  };
}

/** esbuild's first error as one line: the text and where, when it is not in the scenario file itself. */
function firstError(errors: readonly Message[], root: string, entry: string): string | undefined {
  const [first] = errors;
  if (!first) return undefined;
  const where = first.location;
  if (!where) return first.text;
  const file = where.file.replace(`${NAMESPACE}:`, '');
  return `${first.text} (${file === entry ? '' : `${relative(root, file)}, `}line ${where.line})`;
}

/**
 * Bundles one scenario module (`entry`, a realpath inside `root`) into a single ES module, whatever
 * package.json or tsconfig.json is near it.
 */
export async function bundleScenarioModule(entry: string, root: string, shown: string, timeoutMs = SCENARIO_BUNDLE_TIMEOUT_MS): Promise<string> {
  const fail = (reason: string) => new InputError(`${shown}: cannot load the scenario module (${reason})`);
  const { context } = await import('esbuild');
  const bundler = await context({
    // Not a path: esbuild would look at a path entry itself (list its folder, stat it) before asking us.
    entryPoints: ['scenario-module'],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    write: false,
    logLevel: 'silent',
    tsconfigRaw: {},
    plugins: [confinedTo(root, entry)],
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void bundler.cancel();
  }, timeoutMs);
  try {
    const result = await bundler.rebuild();
    if (timedOut) throw fail(`it did not finish bundling within ${timeoutMs / 1000} s`);
    return result.outputFiles?.[0]?.text ?? '';
  } catch (error) {
    if (error instanceof InputError) throw error;
    if (timedOut) throw fail(`it did not finish bundling within ${timeoutMs / 1000} s`);
    const reason = firstError((error as { errors?: Message[] }).errors ?? [], root, entry);
    throw fail(reason ?? firstLine((error as Error).message));
  } finally {
    clearTimeout(timer);
    await bundler.dispose();
  }
}

/**
 * The default export of a TypeScript scenario module, as JSON (undefined when it has none). `path` is the
 * module's realpath, inside `root`, the realpath of its folder.
 */
export async function loadScenarioModule(path: string, root: string, shown: string): Promise<unknown> {
  const code = await bundleScenarioModule(path, root, shown);
  const reply = await runInChild(code, shown);
  if (reply.kind === 'error') throw new InputError(`${shown}: cannot load the scenario module (${reply.message})`);
  if (reply.kind === 'none') return undefined;
  if (Buffer.byteLength(reply.json) > MAX_INPUT_BYTES) throw new InputError(`${shown}: the scenario module's default export is over ${MAX_INPUT_BYTES} bytes (64 MiB) as JSON`);
  return parseJsonText(reply.json, `${shown} (its default export)`);
}

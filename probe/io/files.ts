// Every file the probe reads from the user, and every file it writes, goes through here, so each gets the
// same limits: inputs are regular files of at most MAX_INPUT_BYTES holding JSON at most MAX_JSON_DEPTH
// deep (MAX_WRITTEN_JSON_DEPTH for the files the probe wrote itself); outputs are regular files or new
// paths, written atomically (a temporary file in the same folder, renamed over the target), and an output
// the probe reads back is held to that reader's limits as it is written (issue 20: everything the probe
// writes, it can read). Every refusal is an InputError naming the path, raised before anything changed.
import {
  accessSync,
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  statfsSync,
  statSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join, resolve } from 'node:path';
import { InputError } from '../core/errors.ts';

/** The largest file the probe reads (captures, scenario files, recorded results, baselines, shards). */
export const MAX_INPUT_BYTES = 64 * 1024 * 1024;
/**
 * How deeply objects and arrays may nest in JSON a person writes for the probe (captures, scenario files,
 * a scenario module's export); deeper is refused before validation.
 */
export const MAX_JSON_DEPTH = 256;
/**
 * The most levels a file the probe writes adds around a value it took from such an input. A result file
 * puts a capture's `result` (level 2 of the capture) at `cases[i].result` (level 4), the client's copy of
 * its structuredContent (level 3) at `cases[i].observed.otherKeys.toolMessage.artifact[j].data` (level 9:
 * LangChain's ToolMessage, +6), and a mismatch quotes an observation one level deeper than the observation
 * (+7); a sweep result puts a scenario file's `result` (level 2) at `releases[i].cases[j].result` (+4).
 * The rest is margin for a line that wraps more: the writers check it (`ReadBack`), so wrapping past it
 * is refused naming the file, never written unreadable (test/hostile-action.test.ts replays a capture and
 * sweeps a scenario at MAX_JSON_DEPTH, and reads what they wrote back).
 */
const MAX_ADDED_DEPTH = 16;
/**
 * How deeply JSON the probe wrote itself (result, sweep, shard, baseline and finding files) may nest when
 * it reads it back: derived from MAX_JSON_DEPTH, so an input at its limit always gives a readable output.
 */
export const MAX_WRITTEN_JSON_DEPTH = MAX_JSON_DEPTH + MAX_ADDED_DEPTH;

/** Kernel filesystems: nothing the probe writes belongs there, and Node's recursive mkdir spins on them. */
const KERNEL_FILESYSTEMS = new Map([
  [0x9fa0, 'proc'],
  [0x62656572, 'sysfs'],
  [0x27e0eb, 'cgroup'],
  [0x63677270, 'cgroup2'],
  [0x64626720, 'debugfs'],
]);

function errno(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? String(error);
}

function kindOf(stats: Stats): string {
  if (stats.isFile()) return 'a file';
  if (stats.isDirectory()) return 'a folder';
  if (stats.isSymbolicLink()) return 'a symbolic link';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file or folder';
}

/**
 * The text of a regular file, or undefined when there is none at `path`. Anything else at the path (a
 * folder, FIFO, device) and a file over MAX_INPUT_BYTES is an InputError, raised before reading it: the
 * file is opened without blocking (a FIFO with no writer) and checked on the open descriptor.
 */
export function readInputText(path: string, what: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if (errno(error) === 'ENOENT') return undefined;
    throw new InputError(`${path}: cannot read the ${what} (${errno(error)})`);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new InputError(`${path}: the ${what} is ${kindOf(stats)}, not a regular file`);
    if (stats.size > MAX_INPUT_BYTES) throw new InputError(`${path}: the ${what} is ${stats.size} bytes, over the limit of ${MAX_INPUT_BYTES} (64 MiB)`);
    // Read to the end, but never past the limit (a file that grows while it is read).
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(1024 * 1024);
      let read: number;
      try {
        read = readSync(fd, chunk, 0, chunk.length, null);
      } catch (error) {
        throw new InputError(`${path}: cannot read the ${what} (${errno(error)})`);
      }
      if (read === 0) break;
      total += read;
      if (total > MAX_INPUT_BYTES) throw new InputError(`${path}: the ${what} is over the limit of ${MAX_INPUT_BYTES} bytes (64 MiB)`);
      chunks.push(chunk.subarray(0, read));
    }
    return Buffer.concat(chunks).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** Whether objects and arrays in `value` nest more than `limit` levels (walked without recursion). */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Object.values(item)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

/** JSON.parse with a depth limit (MAX_JSON_DEPTH unless given); anything wrong is an InputError naming `path`. */
export function parseJsonText(text: string, path: string, maxDepth: number = MAX_JSON_DEPTH): unknown {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof RangeError ? 'nested too deeply to parse' : (error as Error).message;
    throw new InputError(`${path}: not valid JSON (${reason})`);
  }
  if (nestsDeeperThan(json, maxDepth)) {
    throw new InputError(`${path}: JSON nested more than ${maxDepth} levels deep (the probe's limit)`);
  }
  return json;
}

// --- outputs -------------------------------------------------------------------------------------------

function statOrUndefined(path: string, follow: boolean): Stats | undefined {
  try {
    return follow ? statSync(path) : lstatSync(path);
  } catch (error) {
    const code = errno(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/**
 * Checks, without changing anything, that `dir` is a folder the probe can write in, or can be made: its
 * nearest existing ancestor is a writable folder outside the kernel filesystems. Returns the folders to create.
 */
function plannedFolders(dir: string, label: string): string[] {
  const missing: string[] = [];
  let current = resolve(dir);
  for (;;) {
    let stats: Stats | undefined;
    try {
      stats = statOrUndefined(current, true);
    } catch (error) {
      throw new InputError(`${label}: cannot use its folder ${current} (${errno(error)})`);
    }
    if (stats) {
      if (!stats.isDirectory()) throw new InputError(`${label}: ${current} is ${kindOf(stats)}, not a folder`);
      break;
    }
    missing.unshift(current);
    const parent = dirname(current);
    if (parent === current) throw new InputError(`${label}: no folder of it exists`);
    current = parent;
  }
  const filesystem = KERNEL_FILESYSTEMS.get(statfsSync(current).type);
  if (filesystem) throw new InputError(`${label}: ${current} is on a kernel filesystem (${filesystem}); the probe writes nothing there`);
  try {
    accessSync(current, constants.W_OK | constants.X_OK);
  } catch (error) {
    throw new InputError(`${label}: cannot write in ${current} (${errno(error)})`);
  }
  return missing;
}

/** Checks, without changing anything, that `dir` is a writable folder or can be made (see plannedFolders). */
export function checkFolderPath(dir: string, label: string): void {
  plannedFolders(dir, label);
}

/** Creates `dir` one level at a time (never Node's recursive mkdir), after the checks of plannedFolders. */
export function makeFolder(dir: string, label: string): void {
  for (const folder of plannedFolders(dir, label)) {
    try {
      mkdirSync(folder);
    } catch (error) {
      if (errno(error) !== 'EEXIST') throw new InputError(`${label}: cannot create the folder ${folder} (${errno(error)})`);
    }
  }
}

/** A path that outputs must not replace, and why. */
export interface Guarded {
  readonly path: string;
  readonly why: string;
}

function sameFile(a: string, b: string): boolean {
  if (resolve(a) === resolve(b)) return true;
  const [x, y] = [statOrUndefined(a, true), statOrUndefined(b, true)];
  return x !== undefined && y !== undefined && x.dev === y.dev && x.ino === y.ino;
}

/**
 * Checks, without changing anything, that `path` can take an output: it is a regular file or a new path
 * in a folder that is writable or can be made, and none of `guarded`. A symbolic link is refused, not
 * written through or replaced. `label` names the path in errors (`--out results/x.json`).
 */
export function checkOutputPath(path: string, label: string, guarded: readonly Guarded[] = []): void {
  for (const guard of guarded) if (sameFile(path, guard.path)) throw new InputError(`${label}: ${guard.why}; write the output elsewhere`);
  let stats: Stats | undefined;
  try {
    stats = statOrUndefined(path, false);
  } catch (error) {
    throw new InputError(`${label}: cannot use the path (${errno(error)})`);
  }
  if (stats && !stats.isFile()) throw new InputError(`${label}: is ${kindOf(stats)}; outputs go only to regular files or new paths`);
  plannedFolders(dirname(path), label);
}

/**
 * What a JSON output will be read back as, and so the limits its reader keeps: MAX_INPUT_BYTES, and
 * `maxDepth` (MAX_WRITTEN_JSON_DEPTH for the probe's own files, MAX_JSON_DEPTH for a capture or scenario
 * file it writes for a person to use as input).
 */
export interface ReadBack {
  /** The file as its reader names it: `result file`, `sweep result`, `replay capture`. */
  readonly what: string;
  readonly maxDepth: number;
}

/** A result, sweep, shard, baseline or finding file: read back by the probe, the Action and the API. */
export const WRITTEN_FILE = (what: string): ReadBack => ({ what, maxDepth: MAX_WRITTEN_JSON_DEPTH });

/**
 * Follows JSON text piece by piece and refuses it, naming `label`, the moment it passes what `readBack`'s
 * reader takes: so a file the probe could not read back is never written (the caller's temporary file goes).
 */
function readBackCheck(readBack: ReadBack, label: string): (piece: string, bytes: number) => void {
  let total = 0;
  let depth = 0;
  let inString = false;
  let escaped = false;
  return (piece, bytes) => {
    total += bytes;
    if (total > MAX_INPUT_BYTES) {
      throw new InputError(`${label}: not written: the ${readBack.what} would be over ${MAX_INPUT_BYTES} bytes (64 MiB), more than the probe reads back`);
    }
    // Brackets outside strings (RFC 8259 §7: in a string only `\` escapes and `"` ends it).
    for (let index = 0; index < piece.length; index += 1) {
      const code = piece.charCodeAt(index);
      if (inString) {
        if (escaped) escaped = false;
        else if (code === 0x5c) escaped = true;
        else if (code === 0x22) inString = false;
      } else if (code === 0x22) inString = true;
      else if (code === 0x7b || code === 0x5b) {
        depth += 1;
        if (depth > readBack.maxDepth) {
          throw new InputError(`${label}: not written: the ${readBack.what} would nest more than ${readBack.maxDepth} levels deep, more than the probe reads back`);
        }
      } else if (code === 0x7d || code === 0x5d) depth -= 1;
    }
  };
}

/**
 * The one writer of output files: the checks of checkOutputPath (again, just before writing), missing
 * folders made one level at a time, then a temporary file beside the target renamed over it, so a reader
 * never sees a half-written file and a failed write leaves the old one as it was. `content` is the text,
 * or its pieces one after another (a long result streamed from the run's journal, never held whole);
 * whatever goes wrong while they are made or written, the target is left as it was. With `readBack`, JSON
 * text past its reader's limits is refused as it is written.
 */
export function writeFileAtomic(path: string, content: string | Iterable<string>, label: string = path, readBack?: ReadBack): void {
  checkOutputPath(path, label);
  makeFolder(dirname(path), label);
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const check = readBack ? readBackCheck(readBack, label) : undefined;
  let fd: number | undefined;
  try {
    fd = openSync(temporary, 'wx');
    for (const piece of typeof content === 'string' ? [content] : content) {
      const bytes = Buffer.from(piece);
      check?.(piece, bytes.length);
      for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written);
    }
    closeSync(fd);
    fd = undefined;
    renameSync(temporary, path);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    rmSync(temporary, { force: true });
    // A file-system refusal is the user's to fix; anything else (a piece that could not be made) is ours.
    if ((error as NodeJS.ErrnoException).syscall !== undefined) throw new InputError(`${label}: cannot write (${errno(error)})`);
    // A piece longer than V8's longest string (2^29 - 24 characters) is far past MAX_INPUT_BYTES: its reader
    // would refuse the file, so this is the size refusal, met before the piece could be counted.
    if (readBack && error instanceof RangeError && /Invalid string length/.test(error.message)) {
      throw new InputError(`${label}: not written: the ${readBack.what} would be over ${MAX_INPUT_BYTES} bytes (64 MiB), more than the probe reads back`);
    }
    throw error;
  }
}

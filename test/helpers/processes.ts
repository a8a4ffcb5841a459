// Watching the processes a test started, through Linux's /proc: which children a process has, with what
// command line, and polling until one appears.
import { readdirSync, readFileSync } from 'node:fs';

/** Linux: the processes `pid` started (its threads' children included). */
export function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) => readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number));
  } catch {
    return [];
  }
}

export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

/** Polls `probe` every 50 ms until it gives something, for at most `ms`. */
export async function until<T>(probe: () => T | undefined, ms: number): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const found = probe();
    if (found !== undefined) return found;
    if (Date.now() > end) throw new Error(`nothing within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Linux: every process below `pid` (children, their children, …). */
export function descendantsOf(pid: number): number[] {
  return childrenOf(pid).flatMap((child) => [child, ...descendantsOf(child)]);
}

/** The Node process loading a scenario module below `pid` (under coreutils' timeout where there is one). */
export function scenarioLoaderOf(pid: number): number | undefined {
  return descendantsOf(pid).find((child) => {
    const command = commandLine(child);
    return command.startsWith(`${process.execPath} `) && command.includes('--input-type=module');
  });
}

// Formats shared by the audit and replay commands, and where each goes.
import { execFileSync } from 'node:child_process';
import { basename, resolve } from 'node:path';
import type { Comparison } from '../core/compare.ts';
import type { ResultFile } from '../core/domain.ts';
import { InputError } from '../core/errors.ts';
import { HARNESS, harnessRepository } from '../core/harness.ts';
import { renderJunit } from '../render/junit.ts';
import { renderMarkdown, type EvidenceContext } from '../render/markdown.ts';
import { serializeResult, writeFileAtomic } from '../io/json-files.ts';
import { displayPath, PROJECT_ROOT, type CliIo } from './io.ts';
import { writeReproFolder } from './repro.ts';

export const FORMATS = ['table', 'json', 'markdown', 'junit', 'repro'] as const;
export type Format = (typeof FORMATS)[number];

export function parseFormat(value: string | undefined, json: boolean): Format {
  if (json && value !== undefined && value !== 'json') throw new InputError(`--json and --format ${value} ask for two formats; choose one`);
  if (json) return 'json';
  const format = value ?? 'table';
  if (!(FORMATS as readonly string[]).includes(format)) throw new InputError(`--format ${format}: expected one of ${FORMATS.join(', ')}`);
  return format as Format;
}

function git(args: string[]): string | undefined {
  try {
    return execFileSync('git', args, { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'ignore'], encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

/** The harness's own git checkout, for the evidence's "Reproduce" section; absent outside a checkout. */
export function gitContext(): EvidenceContext['git'] {
  const commit = git(['rev-parse', 'HEAD']);
  if (!commit) return undefined;
  const dirty = (git(['status', '--porcelain', '--untracked-files=no']) ?? '') !== '';
  return { commit, dirty };
}

export interface EmitInput {
  readonly result: ResultFile;
  readonly comparison: Comparison | undefined;
  readonly format: Format;
  /** --out as given (absolute), or undefined. */
  readonly out: string | undefined;
  /** Where the result JSON goes when --out does not take it. */
  readonly defaultJsonPath: string;
  readonly recordedPath: string | undefined;
  readonly updatedRecorded: boolean;
  readonly argv: readonly string[];
  /** The terminal table: the normal audit report, or with the lint findings for a replay. */
  readonly table: (writtenPath: string) => string;
  /** --format repro: the reproduction folder's files, written to --out. */
  readonly reproFiles?: Record<string, string>;
}

/**
 * Where the result JSON goes by default: the command's path in results/, or the same file name in
 * MCP_SDK_PROBE_RESULTS_DIR when that is set (the tests use it to keep the checkout clean).
 */
function defaultJsonPathFor(input: EmitInput, io: CliIo): string {
  const dir = io.env.MCP_SDK_PROBE_RESULTS_DIR;
  return dir ? resolve(io.cwd, dir, basename(input.defaultJsonPath)) : input.defaultJsonPath;
}

/**
 * The result JSON is always written (to --out for table/json, else to the default path). Markdown and
 * JUnit documents go to --out when given, else to stdout; the table and --json go to stdout. A repro
 * folder goes to --out (required, checked before the run).
 */
export function emit(input: EmitInput, io: CliIo): void {
  const json = serializeResult(input.result);
  const documentFormat = input.format === 'markdown' || input.format === 'junit' || input.format === 'repro';
  const jsonPath = documentFormat || !input.out ? defaultJsonPathFor(input, io) : input.out;
  if (input.format === 'repro') {
    if (!input.out || !input.reproFiles) throw new Error('emit: --format repro needs --out and the files');
    // The folder first: if it cannot be written, the run leaves nothing behind.
    writeReproFolder(input.out, input.reproFiles);
    writeFileAtomic(jsonPath, json);
    const shown = displayPath(input.out, io.cwd);
    io.stderr(`Standalone reproduction written to ${shown} (run: cd ${shown} && npm install --ignore-scripts && node repro.mjs)\n`);
    return;
  }
  writeFileAtomic(jsonPath, json);
  if (input.format === 'table') return io.stdout(input.table(displayPath(jsonPath, io.cwd)));
  if (input.format === 'json') return io.stdout(json);
  const document =
    input.format === 'junit'
      ? renderJunit(input.result)
      : renderMarkdown(input.result, input.comparison, {
          argv: input.argv,
          git: gitContext(),
          harness: { ...HARNESS, ...(harnessRepository() ? { repository: harnessRepository() } : {}) },
          ...(input.recordedPath ? { recordedPath: displayPath(input.recordedPath, io.cwd) } : {}),
        });
  if (input.out) {
    writeFileAtomic(input.out, document);
    io.stderr(`${input.format === 'junit' ? 'JUnit XML' : 'Markdown evidence'} written to ${displayPath(input.out, io.cwd)}\n`);
  } else io.stdout(document);
}

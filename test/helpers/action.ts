// Runs the GitHub Action's script, action/run.mjs, as the composite step in action.yml runs it: INPUT_*
// variables, a temporary $GITHUB_STEP_SUMMARY and $GITHUB_OUTPUT (created empty, as GitHub does), a fresh
// workspace as the working folder, against the pinned clients.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, type CliRun } from './cli.ts';

export const ACTION_SCRIPT = join(ROOT, 'action', 'run.mjs');

export interface ActionRun extends CliRun {
  summary: string;
  outputs: Record<string, string>;
  workspace: string;
}

/** A file to put in the workspace: a path to copy, or `{ text }` to write. */
export type WorkspaceFile = string | { readonly text: string };

let runs = 0;
/** One step run in a fresh workspace under `base`; `files` are put into it first (name → source). */
export function runAction(base: string, inputs: Record<string, string>, files: Record<string, WorkspaceFile> = {}): Promise<ActionRun> {
  const workspace = join(base, `ws-${++runs}`);
  mkdirSync(workspace);
  for (const [name, source] of Object.entries(files)) {
    mkdirSync(join(workspace, name, '..'), { recursive: true });
    if (typeof source === 'string') copyFileSync(source, join(workspace, name));
    else writeFileSync(join(workspace, name), source.text);
  }
  const summaryFile = join(workspace, '..', `summary-${runs}.md`);
  const outputFile = join(workspace, '..', `output-${runs}.txt`);
  writeFileSync(summaryFile, '');
  writeFileSync(outputFile, '');
  const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true', GITHUB_STEP_SUMMARY: summaryFile, GITHUB_OUTPUT: outputFile };
  for (const key of Object.keys(env)) if (key.startsWith('INPUT_') || key === 'MCP_SDK_PROBE_RESULTS_DIR') delete env[key];
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase()}`] = value;
  return new Promise((done) => {
    execFile(process.execPath, [ACTION_SCRIPT], { cwd: workspace, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const outputs = Object.fromEntries(
        readFileSync(outputFile, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
      );
      done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr, summary: readFileSync(summaryFile, 'utf8'), outputs, workspace });
    });
  });
}

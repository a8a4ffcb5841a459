// The logic of the GitHub Action (action.yml runs this file; so can anyone, locally): run the audit, a
// replay of capture files, or a sweep with the probe's own command, then write
//   - the job summary in Markdown, appended to $GITHUB_STEP_SUMMARY (when set),
//   - the reports into the reports folder: <name>.json (the result JSON the command wrote) and
//     <name>.junit.xml for the audit and each replay; sweep.json and sweep.html for a sweep,
//   - the step outputs to $GITHUB_OUTPUT (when set): exit-code, passed, failed, reports.
// Inputs are INPUT_* environment variables (action.yml passes each input as one). The command runs once
// per report; the JUnit, summary and HTML are rendered from the JSON it wrote by the library API, so they
// cannot disagree with it. The exit code is the command's (the worst of several replays), given only after
// everything is written: a failing probe fails the step and its reports still upload. Bad input (an unknown
// mode, a glob matching no file, a sweep with no range) is one line on stderr and exit 2, as in the CLI.
// Each capture is reported on its own (issue 20): one the command refuses, or whose report cannot be made,
// gets a section saying why in one line, the later ones still run, and the step's exit code is the worst
// (at least 2 for such a one). Whatever a file name, a result or the command's output holds goes into
// the summary's Markdown through the library's escaping functions, so none of it renders live.
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import picomatch from 'picomatch';

const ACTION_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const LAUNCHER = join(ACTION_ROOT, 'probe', 'bin', 'launch.mjs');
const MODES = ['audit', 'replay', 'sweep'];
/** Folders a capture glob never looks into. */
const SKIPPED = new Set(['node_modules', '.git']);

class InputProblem extends Error {}

const env = process.env;
const input = (name) => (env[`INPUT_${name.toUpperCase().replace(/ /g, '_')}`] ?? '').trim();
/** A multi-value input: one value a line (or separated by spaces, for globs and arguments). */
const list = (name, separator) => input(name).split(separator).map((v) => v.trim()).filter(Boolean);

const cwd = process.cwd();
const shown = (path) => relative(cwd, path).split(sep).join('/') || '.';
/** The reports folder (input `reports`, relative to the working folder). */
const reports = resolve(cwd, input('reports') || 'mcp-sdk-probe-reports');

function slug(text) {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'capture';
}

/** Every file under `dir` (relative, with /), skipping node_modules and .git. */
function filesUnder(dir, prefix = '') {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name)) return [];
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return filesUnder(join(dir, entry.name), path);
    return entry.isFile() ? [path] : [];
  });
}

/** A message as one line, as the CLI prints its errors: line breaks shown as `\n` (probe/core/errors.ts). */
function oneLine(text) {
  return String(text).replace(/\r/g, '\\r').replace(/\n/g, '\\n').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** Text without this machine's working folder (the summary names files relative to it). */
const withoutCwd = (text) => text.split(`${cwd}${sep}`).join('');

/**
 * Runs the probe's command, its output shown in the step's log as it would be in a terminal. A command
 * that could not start or was killed wrote no result: that is not a failed case, so its code is 2.
 */
function probe(args) {
  const run = spawnSync(process.execPath, [LAUNCHER, ...args], { cwd, env: { ...env, NO_COLOR: '1' }, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  process.stdout.write(run.stdout ?? '');
  process.stderr.write(run.stderr ?? '');
  const failure = run.error ? `${run.error.message}\n` : run.signal ? `killed by ${run.signal}\n` : '';
  return { code: run.status ?? 2, stdout: run.stdout ?? '', stderr: `${run.stderr ?? ''}${failure}` };
}

/** The escaping functions of the library (dist/index.mjs), loaded once the command has built it. */
let api;

/** Text shown literally in a fenced block whose fence nothing inside can close (CommonMark §4.5). */
function fenced(text) {
  return `${api.markdownFence('text', text.trimEnd())}\n`;
}

/** What a run that wrote no result says in the summary: the command's own one-line error (paths made relative). */
function notRun(heading, run) {
  return [`### ${api.markdownText(heading)}`, '', `Did not run (exit ${run.code}):`, '', fenced(withoutCwd(run.stderr || run.stdout)), ''].join('\n');
}

/** What a run whose report could not be made says in the summary: why, in one line. */
function notReported(heading, run, message) {
  return [`### ${api.markdownText(heading)}`, '', `The command ran (exit ${run.code}); its report could not be made (exit 2):`, '', fenced(message), ''].join('\n');
}

/** The library, built by the command's first run from a checkout; there from then on. */
async function loadApi() {
  api ??= await import(pathToFileURL(join(ACTION_ROOT, 'dist', 'index.mjs')).href);
  return api;
}

/** A sweep's section: its HTML page written beside its JSON, its own report (the command's stdout) fenced. */
function reportSweep(text, json, name, run) {
  const sweep = api.parseSweepText(text, shown(json));
  const html = join(reports, `${name}.html`);
  api.writeReportFile(html, api.renderSweepHtml(sweep));
  const lastLine = run.stdout.trimEnd().split('\n').at(-1) ?? '';
  return [
    `### sweep of ${api.markdownText(sweep.matrix?.title ?? (input('matrix') || 'the audit'))}`,
    '',
    `**${api.markdownText(lastLine)}** (exit ${run.code}). The HTML report is in the uploaded reports (${api.markdownCode(shown(html))}).`,
    '',
    fenced(run.stdout),
    '',
  ].join('\n');
}

async function main() {
  const mode = input('mode') || 'audit';
  if (!MODES.includes(mode)) throw new InputProblem(`input mode: ${JSON.stringify(mode)}: expected one of ${MODES.join(', ')}`);
  const matrix = input('matrix');
  const extra = list('args', /\s+/);
  const summary = [];
  const totals = { passed: 0, failed: 0 };
  let exitCode = 0;

  // The runs this mode makes: [heading, report name, command arguments].
  const runs = [];
  if (mode === 'audit') {
    if (matrix && !['audit', 'extended'].includes(matrix)) throw new InputProblem(`input matrix: ${JSON.stringify(matrix)}: the audit mode runs audit or extended`);
    runs.push([null, matrix || 'audit', [...(matrix ? ['--matrix', matrix] : []), ...extra]]);
  } else if (mode === 'replay') {
    const globs = list('captures', /\s+/);
    if (globs.length === 0) throw new InputProblem('input captures: the replay mode needs a glob of capture files (captures/*.json)');
    const files = filesUnder(cwd);
    const expect = list('expect', /\n/).flatMap((rule) => ['--expect', rule]);
    // A file two globs match is replayed once; two files whose names make the same slug get -2, -3, ….
    const seenFiles = new Set();
    const names = new Set();
    for (const glob of globs) {
      const isMatch = picomatch(glob);
      const matched = files.filter((file) => isMatch(file)).sort();
      if (matched.length === 0) throw new InputProblem(`input captures: ${glob} matches no file under the working folder`);
      for (const file of matched) {
        if (seenFiles.has(file)) continue;
        seenFiles.add(file);
        const stem = `replay-${slug(file.replace(/\.json$/i, ''))}`;
        let name = stem;
        for (let n = 2; names.has(name); n++) name = `${stem}-${n}`;
        names.add(name);
        runs.push([`replay of ${file}`, name, ['replay', file, ...expect, ...extra]]);
      }
    }
  } else {
    const [v1, v2] = [input('v1'), input('v2')];
    if (!v1 && !v2) throw new InputProblem('input v1, v2: the sweep mode needs a range of releases for at least one line (1.10.0..latest)');
    runs.push([null, 'sweep', ['sweep', ...(v1 ? ['--v1', v1] : []), ...(v2 ? ['--v2', v2] : []), ...(matrix ? ['--matrix', matrix] : []), ...extra]]);
  }

  for (const [heading, name, args] of runs) {
    const json = join(reports, `${name}.json`);
    const run = probe([...args, '--out', shown(json)]);
    exitCode = Math.max(exitCode, run.code);
    const title = heading ?? `${mode}${matrix ? ` (${matrix})` : ''}`;
    try {
      await loadApi();
      // Exit 2 is bad input: the command wrote nothing (core/exit-code.ts), so a file there is an earlier run's.
      if (run.code >= 2 || !existsSync(json)) {
        summary.push(notRun(title, run));
        continue;
      }
      const text = readFileSync(json, 'utf8');
      if (mode === 'sweep') {
        summary.push(reportSweep(text, json, name, run));
        continue;
      }
      const result = api.parseResultText(text, shown(json));
      api.writeReportFile(join(reports, `${name}.junit.xml`), api.renderJunit(result));
      // The audit is compared with the recorded result the command compared it with, unless --recorded chose another.
      const comparison = mode === 'audit' && !extra.includes('--recorded') && (result.matrix.name === 'audit' || result.matrix.name === 'extended') ? api.compareWithShipped(result.matrix.name, result) : undefined;
      // The heading is data (a file name): renderSummaryMarkdown escapes its heading itself.
      // The command's exit code already gated identity changes or not (--gate-identity in args); the summary says which.
      summary.push(api.renderSummaryMarkdown(result, comparison, heading ?? result.matrix.title, { gateIdentity: extra.includes('--gate-identity') }));
      totals.passed += result.summary.passed;
      totals.failed += result.summary.failed;
    } catch (error) {
      // The library's InputError (a file past a limit) or anything unexpected: this capture's section says
      // so in one line, and the others still run and report.
      const message = oneLine(withoutCwd(error instanceof Error ? error.message : String(error)));
      exitCode = Math.max(exitCode, 2);
      process.stderr.write(`mcp-sdk-probe action: ${api ? api.terminalLine(`${title}: ${message}`) : oneLine(`${title}: ${message}`)}\n`);
      if (api) summary.push(notReported(title, run, message));
      // Without the library there is no escaping function: the heading keeps only characters that are
      // plain text in Markdown, and the message goes in an indented code block (see the end of this file).
      else summary.push(`### ${title.replace(/[^A-Za-z0-9 _-]/g, '?')}\n\nThe library could not be loaded (exit 2):\n\n    ${message}\n\n`);
    }
  }

  const headline = `## mcp-sdk-probe ${mode}: ${exitCode === 0 ? 'passed' : `failed (exit ${exitCode})`}`;
  const legend = mode === 'sweep' ? '' : '`warm`: after `tools/list`, as an application calls it · `cold`: without `tools/list` · ✅ as expected · ❌ not as expected · ➖ no expectation stated\n';
  if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, `${headline}\n\n${summary.join('')}${legend}`);
  if (env.GITHUB_OUTPUT) {
    appendFileSync(env.GITHUB_OUTPUT, `exit-code=${exitCode}\npassed=${totals.passed}\nfailed=${totals.failed}\nreports=${shown(reports)}\n`);
  }
  return exitCode;
}

try {
  process.exitCode = await main();
} catch (error) {
  // An input the action refuses (InputProblem), or anything else before or after the runs (the summary
  // file cannot be written): one line and exit 2, never a stack trace.
  const message = oneLine(error instanceof Error ? error.message : String(error));
  process.stderr.write(`mcp-sdk-probe action: ${message}\n`);
  try {
    // The message quotes an input. The library may not be built yet (no command ran), so it goes in an
    // indented code block: one line (oneLine) indented four spaces is literal text that nothing in it can
    // end (CommonMark §4.4).
    if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, `## mcp-sdk-probe: nothing ran (exit 2)\n\n    ${message}\n\n`);
    if (env.GITHUB_OUTPUT) appendFileSync(env.GITHUB_OUTPUT, 'exit-code=2\n');
  } catch (again) {
    process.stderr.write(`mcp-sdk-probe action: ${oneLine(again instanceof Error ? again.message : String(again))}\n`);
  }
  process.exitCode = 2;
}

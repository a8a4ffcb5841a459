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
import { spawnSync } from 'node:child_process';
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
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

/** Runs the probe's command, its output shown in the step's log as it would be in a terminal. */
function probe(args) {
  const run = spawnSync(process.execPath, [LAUNCHER, ...args], { cwd, env: { ...env, NO_COLOR: '1' }, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  process.stdout.write(run.stdout ?? '');
  process.stderr.write(run.stderr ?? '');
  return { code: run.status ?? 1, stdout: run.stdout ?? '', stderr: run.stderr ?? '' };
}

function fenced(text) {
  return ['```text', text.trimEnd().replace(/```/g, "``'"), '```', ''].join('\n');
}

/** What a run that wrote no result says in the summary: the command's own one-line error (paths made relative). */
function notRun(heading, run) {
  const said = (run.stderr || run.stdout).split(`${cwd}${sep}`).join('');
  return [`### ${heading}`, '', `Did not run (exit ${run.code}):`, '', fenced(said), ''].join('\n');
}

async function main() {
  const mode = input('mode') || 'audit';
  if (!MODES.includes(mode)) throw new InputProblem(`input mode: ${JSON.stringify(mode)}: expected one of ${MODES.join(', ')}`);
  const reports = resolve(cwd, input('reports') || 'mcp-sdk-probe-reports');
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

  let api;
  for (const [heading, name, args] of runs) {
    const json = join(reports, `${name}.json`);
    const run = probe([...args, '--out', shown(json)]);
    exitCode = Math.max(exitCode, run.code);
    // The command built dist/ on its first run from a checkout; the library is there from now on.
    api ??= await import(pathToFileURL(join(ACTION_ROOT, 'dist', 'index.mjs')).href);
    let text;
    try {
      text = readFileSync(json, 'utf8');
    } catch {
      summary.push(notRun(heading ?? `${mode}${matrix ? ` (${matrix})` : ''}`, run));
      continue;
    }
    if (mode === 'sweep') {
      const sweep = api.parseSweepText(text, shown(json));
      api.writeReportFile(join(reports, `${name}.html`), api.renderSweepHtml(sweep));
      summary.push(
        [`### sweep of ${sweep.matrix?.title ?? matrix ?? 'the audit'}`, '', `**${run.stdout.trimEnd().split('\n').at(-1)}** (exit ${run.code}). The HTML report is in the uploaded reports (\`${shown(join(reports, `${name}.html`))}\`).`, '', fenced(run.stdout), ''].join('\n'),
      );
      continue;
    }
    const result = api.parseResultText(text, shown(json));
    totals.passed += result.summary.passed;
    totals.failed += result.summary.failed;
    api.writeReportFile(join(reports, `${name}.junit.xml`), api.renderJunit(result));
    // The audit is compared with the recorded result the command compared it with, unless --recorded chose another.
    const comparison = mode === 'audit' && !extra.includes('--recorded') && (result.matrix.name === 'audit' || result.matrix.name === 'extended') ? api.compareWithShipped(result.matrix.name, result) : undefined;
    summary.push(api.renderSummaryMarkdown(result, comparison, heading ?? result.matrix.title));
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
  if (!(error instanceof InputProblem)) throw error;
  process.stderr.write(`mcp-sdk-probe action: ${error.message}\n`);
  if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, `## mcp-sdk-probe: nothing ran (exit 2)\n\n${error.message}\n\n`);
  if (env.GITHUB_OUTPUT) appendFileSync(env.GITHUB_OUTPUT, 'exit-code=2\n');
  process.exitCode = 2;
}

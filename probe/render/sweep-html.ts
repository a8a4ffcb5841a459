// The sweep report as one self-contained HTML page (`sweep --format html`): per client line a case ×
// release grid coloured by behaviour, runs of identical releases joined into one cell, change points
// marked and linked to each case's details (the result sent, and what each distinct behaviour observed).
// It opens with a summary of the change points, behaviour first and identity ones (the error's class
// name) counted apart, each linking to its case's row (issue 21).
// Pure: a sweep result in, a string out. Inline CSS, no script, nothing fetched at view time. Every value
// from the result goes through the core's htmlText, and the page's CSP stops what might ever get past it.
import { RELEASE_LINES, type CaseRecord } from '../core/domain.ts';
import { htmlText } from '../core/escape.ts';
import { releaseKey, sideOf, type Side } from '../core/release.ts';
import { sweepSide } from '../sweep/gates.ts';
import { behaviourOf, describeBehaviour, requestedSpecs, type Behaviour, type ReleaseRun, type SweepResult } from '../sweep/model.ts';
import {
  changePointsHeading,
  compressColumns,
  describeChange,
  describeChangePoint,
  describeChangePointCounts,
  describeLeftOut,
  describeLineRuns,
  describePinnedSide,
  groupIdentityPoints,
  shownSpec,
  type ReleaseColumn,
} from './sweep.ts';


/** JSON with sorted keys: two behaviours are the same exactly when their keys are. */
function stableKey(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableKey).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableKey((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

/** Distinguishable fills, light enough for dark text; a row's behaviours take them in order of appearance. */
const PALETTE = ['#cfe8cf', '#f6d3a8', '#c9daf8', '#f4c2c2', '#e1d0f0', '#fff1a8', '#c8ece9', '#e6e6c8'];

/** One cell of a row: consecutive columns in which the case behaved the same (or that all failed to load). */
interface Cell {
  readonly columns: readonly ReleaseColumn[];
  readonly kind: 'ran' | 'failed' | 'absent';
  readonly text: string;
  readonly behaviour?: Behaviour;
  readonly key: string;
}

function cellOf(column: ReleaseColumn, caseId: string): Omit<Cell, 'columns'> {
  const run = column.runs[0]!;
  if (run.status === 'failed') return { kind: 'failed', text: `failed (${run.stage})`, key: `failed:${run.stage}` };
  const record = run.cases.find((c) => c.id === caseId);
  if (!record) return { kind: 'absent', text: '—', key: 'absent' };
  const behaviour = behaviourOf(record.observed, sideOf(run.release));
  return { kind: 'ran', text: describeBehaviour(behaviour), behaviour, key: stableKey(behaviour) };
}

function rowCells(columns: readonly ReleaseColumn[], caseId: string): Cell[] {
  const cells: Cell[] = [];
  for (const column of columns) {
    const cell = cellOf(column, caseId);
    const last = cells.at(-1);
    // A failed release stays its own cell: it says nothing about the case, and its neighbours may differ.
    if (last && last.kind !== 'failed' && last.key === cell.key) cells[cells.length - 1] = { ...last, columns: [...last.columns, column] };
    else cells.push({ ...cell, columns: [column] });
  }
  return cells;
}

const labels = (cell: Cell) => cell.columns.flatMap((column) => column.runs.map((run) => run.release.label));
const span = (names: readonly string[]) => (names.length === 1 ? names[0]! : `${names[0]}–${names.at(-1)}`);
/** A case's anchors: its row in the grid and its details. */
interface CaseAnchors {
  readonly row: string;
  readonly details: string;
}

/**
 * Anchors by each case's place in the sweep, so they are unique whatever the ids hold: ids are data, and
 * two ids can read alike once cut down to what a fragment may safely hold (`a/b`, `a_b`).
 */
function caseAnchors(result: SweepResult): ReadonlyMap<string, CaseAnchors> {
  const anchors = new Map<string, CaseAnchors>();
  for (const run of result.releases) {
    if (run.status !== 'ran') continue;
    for (const { id } of run.cases) {
      if (anchors.has(id)) continue;
      const slug = `${anchors.size + 1}-${id.replace(/[^a-z0-9-]/gi, '_').slice(0, 80)}`;
      anchors.set(id, { row: `row-${slug}`, details: `case-${slug}` });
    }
  }
  return anchors;
}

const attr = (name: string, value: string) => ` ${name}="${htmlText(value)}"`;

function renderLine(result: SweepResult, runs: readonly ReleaseRun[], anchors: ReadonlyMap<string, CaseAnchors>, rowsShown: Set<string>): string {
  const columns = compressColumns(runs);
  const caseIds = [...new Set(runs.flatMap((run) => (run.status === 'ran' ? run.cases.map((c) => c.id) : [])))];
  const points = new Map(result.changePoints.map((p) => [`${p.caseId}\u0000${p.from}`, p]));
  const head = columns
    .map((column) => {
      const names = column.runs.map((run) => run.release.label);
      return `<th scope="col"${attr('data-releases', names.join(' '))}${attr('title', names.join(', '))}>${htmlText(column.label)}</th>`;
    })
    .join('');
  const rows = caseIds.map((caseId) => {
    const colours = new Map<string, number>();
    const cells = rowCells(columns, caseId).map((cell) => {
      const names = labels(cell);
      const point = cell.kind === 'ran' ? names.map((label) => points.get(`${caseId}\u0000${label}`)).find((p) => p !== undefined) : undefined;
      let style = '';
      if (cell.kind === 'ran') {
        if (!colours.has(cell.key)) colours.set(cell.key, colours.size);
        style = attr('style', `background:${PALETTE[colours.get(cell.key)! % PALETTE.length]}`);
      }
      const title = `${caseId} · ${span(names)} (${names.length} release${names.length === 1 ? '' : 's'}): ${cell.text}`;
      const identity = point?.kind === 'identity';
      const marker = point
        ? `<a${attr('class', identity ? 'change identity' : 'change')}${attr('href', `#${anchors.get(caseId)!.details}`)}${attr('title', `${identity ? 'identity change point' : 'change point'}: ${describeChangePoint(point)}`)}>${identity ? '△' : '▲'}</a> `
        : '';
      const attrs =
        attr('class', `cell ${cell.kind}${point ? (point.kind === 'identity' ? ' renamed' : ' changed') : ''}`) +
        (cell.columns.length > 1 ? ` colspan="${cell.columns.length}"` : '') +
        attr('data-case', caseId) +
        attr('data-releases', names.join(' ')) +
        attr('data-behaviour', cell.text) +
        (point ? attr('data-change', `${point.through} → ${point.from}`) + attr('data-change-kind', point.kind) : '') +
        attr('title', title) +
        style;
      return `<td${attrs}>${marker}${htmlText(cell.text)}</td>`;
    });
    const { row, details } = anchors.get(caseId)!;
    // The summary links to a case's row; a case is in one table, but an id is given once whatever happens.
    const id = rowsShown.has(row) ? '' : attr('id', row);
    rowsShown.add(row);
    return `<tr${id}><th scope="row"><a${attr('href', `#${details}`)}>${htmlText(caseId)}</a></th>${cells.join('')}</tr>`;
  });
  if (caseIds.length === 0) rows.push(`<tr><th scope="row">(no release ran)</th>${columns.map((c) => `<td class="cell failed">${htmlText(cellOf(c, '').text)}</td>`).join('')}</tr>`);
  const first = runs[0]!;
  const caption = describeLineRuns(runs);
  return `<section><h2>${htmlText(caption)}</h2><div class="scroll"><table class="grid"${attr('data-line', first.release.line)}><thead><tr><th scope="col">case</th>${head}</tr></thead><tbody>${rows.join('')}</tbody></table></div></section>`;
}

const json = (value: unknown) => `<pre>${htmlText(JSON.stringify(value, null, 2) ?? 'null')}</pre>`;

function renderDetails(result: SweepResult, anchors: ReadonlyMap<string, CaseAnchors>): string {
  const byCase = new Map<string, { record: CaseRecord; label: string; side: Side }[]>();
  for (const run of result.releases) {
    if (run.status !== 'ran') continue;
    for (const record of run.cases) {
      if (!byCase.has(record.id)) byCase.set(record.id, []);
      byCase.get(record.id)!.push({ record, label: run.release.label, side: sideOf(run.release) });
    }
  }
  return [...byCase.entries()]
    .map(([caseId, seen]) => {
      const groups = new Map<string, { behaviour: Behaviour; labels: string[]; record: CaseRecord }>();
      for (const { record, label, side } of seen) {
        const behaviour = behaviourOf(record.observed, side);
        const key = stableKey(behaviour);
        if (!groups.has(key)) groups.set(key, { behaviour, labels: [], record });
        groups.get(key)!.labels.push(label);
      }
      const first = seen[0]!.record;
      const points = result.changePoints.filter((p) => p.caseId === caseId);
      const about = [first.question, first.reference].filter((t): t is string => t !== undefined).map((t) => `<p>${htmlText(t)}</p>`).join('');
      const changes = points.length > 0 ? `<ul>${points.map((p) => `<li>▲ ${htmlText(describeChangePoint(p))}</li>`).join('')}</ul>` : '<p>No change point: the same behaviour in every release that ran.</p>';
      const behaviours = [...groups.values()]
        .map(
          (g) =>
            `<h4>${htmlText(describeBehaviour(g.behaviour))} <small>in ${g.labels.length} release${g.labels.length === 1 ? '' : 's'}: ${htmlText(g.labels.join(', '))}</small></h4>` +
            `<p>Observed (in ${htmlText(g.labels[0]!)}):</p>${json(g.record.observed)}`,
        )
        .join('');
      return (
        `<details${attr('id', anchors.get(caseId)!.details)}${attr('data-case', caseId)}${points.length > 0 ? ' open' : ''}><summary>${htmlText(caseId)}${points.length > 0 ? ` <span class="marker">▲ ${points.length} change point${points.length === 1 ? '' : 's'}</span>` : ''}</summary>` +
        `${about}${changes}<h4>Sent result</h4>${json(first.result)}${behaviours}</details>`
      );
    })
    .join('\n');
}

/**
 * The page's opening: every behaviour change point, linking to its case's row (and details), then the
 * identity ones grouped by rename (a dependency's rename touches many cases at once), also linked.
 */
function renderChangePointSummary(result: SweepResult, anchors: ReadonlyMap<string, CaseAnchors>): string {
  const link = (caseId: string, text: string = caseId) => `<a${attr('href', `#${anchors.get(caseId)?.row ?? ''}`)}>${htmlText(text)}</a>`;
  const behaviour = result.changePoints.filter((point) => point.kind === 'behaviour');
  const identity = groupIdentityPoints(result.changePoints);
  const parts = [`<section id="change-points"><h2>${htmlText(changePointsHeading(result.changePoints))}</h2>`];
  if (result.changePoints.length === 0) parts.push('<p>None: every case behaved the same in every release that ran.</p>');
  if (behaviour.length > 0) {
    parts.push(
      `<h3>Behaviour (${behaviour.length})</h3><ol class="points">${behaviour
        .map(
          (point) =>
            `<li${attr('data-case', point.caseId)} data-change-kind="behaviour">${link(point.caseId)}: ${htmlText(describeChange(point))} ` +
            `<a${attr('href', `#${anchors.get(point.caseId)?.details ?? ''}`)}>details</a></li>`,
        )
        .join('')}</ol>`,
    );
  } else if (identity.length > 0) parts.push('<p>No behaviour change point.</p>');
  if (identity.length > 0) {
    const count = identity.reduce((sum, group) => sum + group.caseIds.length, 0);
    parts.push(
      `<h3>Identity only (${count})</h3><p class="meta">What names the failure changed, not what the application gets; the gates fail on these only with --gate-identity.</p><ul class="points">${identity
        .map(
          (group) =>
            `<li data-change-kind="identity">${htmlText(`${group.change} (≤ ${group.through} → from ${group.from}), ${group.caseIds.length} case${group.caseIds.length === 1 ? '' : 's'}:`)} ` +
            `${group.caseIds.map((caseId) => `<span${attr('data-case', caseId)}>${link(caseId)}</span>`).join(', ')}</li>`,
        )
        .join('')}</ul>`,
    );
  }
  parts.push('</section>');
  return parts.join('');
}

const CSS = `
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
h1{font-size:1.3em;margin:0 0 .2em}h2{font-size:1.1em;margin:1.2em 0 .4em}
.meta{color:#555;margin:.2em 0}
.scroll{overflow-x:auto}
table.grid{border-collapse:collapse}
.grid th,.grid td{border:1px solid #bbb;padding:3px 6px;white-space:nowrap;text-align:left}
.grid thead th{background:#f2f2f2;font-weight:600}
.grid th[scope=row]{font-family:ui-monospace,monospace;font-weight:normal;background:#fafafa}
td.failed{background:repeating-linear-gradient(45deg,#eee,#eee 4px,#ddd 4px,#ddd 8px);color:#700}
td.absent{color:#999}
td.changed{box-shadow:inset 3px 0 0 #c00}
td.renamed{box-shadow:inset 3px 0 0 #888}
a.change.identity{color:#666}
tr:target th{outline:2px solid #c00}
a.change,.marker{color:#c00;text-decoration:none;font-weight:700}
.legend span.swatch{display:inline-block;width:1.2em;height:1em;vertical-align:middle;border:1px solid #999;margin:0 .3em}
details{border:1px solid #ddd;margin:.4em 0;padding:.3em .6em}
details:target{outline:2px solid #c00}
summary{cursor:pointer;font-family:ui-monospace,monospace}
pre{background:#f6f6f6;padding:.5em;overflow-x:auto;max-height:20em}
`;

/**
 * The page's second layer (issue 20), for markup that ever got past the escaping: nothing is fetched,
 * no script runs, no form sends and no <base> moves the links; only the inline <style> and inline
 * style attributes apply (CSP Level 3: default-src covers script, img, connect, frame, font, media).
 * First in <head>, before any content, so it governs the whole page.
 */
const CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

export function renderSweepHtml(result: SweepResult): string {
  const env = result.environment;
  const anchors = caseAnchors(result);
  const rowsShown = new Set<string>();
  const lines = RELEASE_LINES
    .map((line) => result.releases.filter((run) => run.release.line === line))
    .filter((runs) => runs.length > 0)
    .map((runs) => renderLine(result, runs, anchors, rowsShown));
  const failed = result.releases.filter((run): run is Extract<ReleaseRun, { status: 'failed' }> => run.status === 'failed');
  const { request: asked } = result;
  // A flag given several times is shown once per spec, as typed but a path of this machine by its file name.
  const request = (
    [
      ['--v1', asked.v1],
      ['--v2', asked.v2],
      ['--ai-sdk', asked.aiSdk],
      ['--server-v1', asked.serverV1],
      ['--server-v2', asked.serverV2],
    ] as const
  )
    .flatMap(([flag, specs]) => requestedSpecs(specs).map((text) => `${flag} ${shownSpec(text)}`))
    .join(' ');
  const { summary } = result;
  const title = `Sweep of matrix ${result.matrix.name}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${htmlText(title)}</title><style>${CSS}</style></head>
<body>
<h1>${htmlText(`${title}: ${result.matrix.title}`)}</h1>
<p class="meta">${htmlText(`${env.harness} · sweep ${request}${result.shard ? ` · shard ${result.shard.index}/${result.shard.count}` : ''} · node ${env.node} ${env.platform}/${env.arch} · ${sweepSide(result) === 'server' ? describePinnedSide(result) : `fixture @modelcontextprotocol/sdk@${env.packages['@modelcontextprotocol/sdk'] ?? '?'}`}`)}</p>
${describeLeftOut(result).map((text) => `<p class="meta">${htmlText(text)}</p>`).join('\n')}
<p class="meta">${htmlText(`${summary.releases} release${summary.releases === 1 ? '' : 's'} swept, ${summary.failedReleases} did not run, ${describeChangePointCounts(result.changePoints)}`)}</p>
${renderChangePointSummary(result, anchors)}
<p class="legend"><strong>Legend:</strong> each row is a case and each column a release (consecutive releases that behaved the same in every case share a column, and within a row releases with the same behaviour share a cell). Colours belong to a row: the same colour is the same behaviour in that row, e.g.<span class="swatch" style="background:${PALETTE[0]}"></span>first<span class="swatch" style="background:${PALETTE[1]}"></span>second.
<span class="marker">▲</span> a change point: the case behaves differently from the release before (hover for the change, click for the case's details); △ an identity change point: only the error's class name changed.
<span class="swatch" style="background:#ddd"></span>the release did not load or run; — the case did not run there.</p>
${lines.join('\n')}
${failed.length > 0 ? `<h2>Releases that did not run</h2><ul>${failed.map((run) => `<li>${htmlText(`${releaseKey(run.release)}: ${run.stage}: ${run.error.name}: ${run.error.message}`)}</li>`).join('')}</ul>` : ''}
<h2>Cases</h2>
${renderDetails(result, anchors)}
</body></html>
`;
}

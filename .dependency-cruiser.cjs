// The layer rule of probe/ (see probe/README.md): each folder is one layer and may import only the
// layers listed for it here. `npm test` runs this check (`npm run check:layers`); an import against
// the direction, an import cycle, or a folder under probe/ with no row in LAYERS fails it.
/** @type {Record<string, string[]>} layer → the layers it may import (besides itself and npm packages) */
const LAYERS = {
  core: [],
  io: ['core'],
  clients: ['core'],
  fixtures: ['core', 'io'],
  engine: ['core', 'io', 'clients', 'fixtures'],
  releases: ['core', 'io', 'clients'],
  sweep: ['core', 'io', 'clients', 'engine', 'releases'],
  render: ['core', 'sweep'],
  explore: ['core', 'io', 'clients', 'fixtures', 'engine'],
  commands: ['core', 'io', 'clients', 'fixtures', 'engine', 'releases', 'sweep', 'render', 'explore', 'scenarios'],
  bin: ['core', 'io', 'commands'],
  api: ['core', 'io', 'clients', 'fixtures', 'engine', 'releases', 'sweep', 'render', 'explore', 'scenarios'],
};
/** scenarios/ (the matrices as data) sits beside probe/ and is built from core/ alone. */
const SCENARIOS_MAY_IMPORT = ['core'];

const layerPath = (layer) => (layer === 'scenarios' ? '^scenarios/' : `^probe/${layer}/`);
/** Any project module outside the layer itself and the ones it may import. */
const outside = (layer, allowed) => ({ path: '^(probe|scenarios)/', pathNot: [layer, ...allowed].map(layerPath) });

module.exports = {
  forbidden: [
    ...Object.entries({ ...LAYERS, scenarios: SCENARIOS_MAY_IMPORT }).map(([layer, allowed]) => ({
      name: `layer-${layer}`,
      comment: `${layer === 'scenarios' ? 'scenarios/' : `probe/${layer}/`} may import only ${allowed.length ? allowed.join(', ') : 'itself'} (probe/README.md)`,
      severity: 'error',
      from: { path: layerPath(layer) },
      to: outside(layer, allowed),
    })),
    {
      name: 'core-is-pure',
      comment: 'probe/core/ does no I/O: no file system, processes, network or threads',
      severity: 'error',
      from: { path: '^probe/core/' },
      to: { path: '^(node:)?(fs|child_process|net|http|https|worker_threads|os)$', dependencyTypes: ['core'] },
    },
    {
      name: 'unknown-layer',
      comment: 'every folder under probe/ is a layer with a row in LAYERS',
      severity: 'error',
      from: { path: '^probe/', pathNot: `^probe/(${Object.keys(LAYERS).join('|')})/` },
      to: {},
    },
    { name: 'no-cycles', severity: 'error', from: {}, to: { circular: true } },
    { name: 'tests-stay-out', comment: 'the product never imports tests', severity: 'error', from: { path: '^(probe|scenarios)/' }, to: { path: '^test/' } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.mts', '.mjs', '.js', '.json'] },
  },
};

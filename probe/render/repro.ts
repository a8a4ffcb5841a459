// A standalone reproduction of one case, or of several: a folder (package.json, repro.mjs, README.md; for
// several cases one script per case under cases/) a maintainer runs with nothing of this project. Each case
// script starts the same server behaviour, makes the same client calls, prints the observation as one JSON
// line and exits by the project's one convention for "does it still reproduce" (issue 21, REPRO_EXIT).
// Pure: text in, text out (the command writes the files). Same case, same bytes: no paths, no times.
import type { CaseRecord, JsonValue, Observation, Scenario } from '../core/domain.ts';
import { InputError } from '../core/errors.ts';
import { markdownCode, markdownText, terminalJson, terminalLine } from '../core/escape.ts';
import { REPRO_EXIT } from '../core/exit-code.ts';
import { splitClientPackage, type ReleaseIdentity } from '../core/release.ts';

const SDK = '@modelcontextprotocol/sdk';
const CLIENT = '@modelcontextprotocol/client';
const SERVER = '@modelcontextprotocol/server';
/** The cursor of the second tools/list page, as the paginated fixture serves it (fixtures/low-level.ts). */
const SECOND_PAGE = 'page-2';

/** The convention in one line, as each artefact states it. */
export const REPRO_EXIT_LINE =
  'Exit 1 = the recorded behaviour reproduces (git bisect: bad), 0 = it does not (good), 125 = could not run (skip); --until-fixed swaps 0 and 1.';
/** How several cases answer together: the rule `git bisect run` reads (see renderReproFolder). */
export const REPRO_SEVERAL_LINE =
  'Several cases: 125 when any could not run, else 1 when every case reproduces (the recorded state is all there), 0 when any does not (the summary says which); with --until-fixed, 1 once any has gone away. To bisect one behaviour, run its case alone: node cases/<case>.mjs.';

export interface ReproInput {
  readonly scenario: Scenario;
  /** The case as it ran: its observation and the client package that produced it. */
  readonly record: CaseRecord;
  /** Installed versions of the packages that ran (the result's environment, plus the v2 server package). */
  readonly packages: Readonly<Record<string, string>>;
  /** The probe's time limit for the case, in milliseconds. */
  readonly timeoutMs: number;
  /**
   * The client release the case ran, when it is not the pinned install: its identity from the release
   * cache (a local build is known only by it: source, version, integrity).
   */
  readonly clientRelease?: ReleaseIdentity;
  /** The server package release the fixture came from, for a server-side case (`--server-v1`/`--server-v2`). */
  readonly serverRelease?: ReleaseIdentity;
}

/**
 * Why this case cannot be reproduced without the harness, or undefined when it can. Decided from the
 * scenario alone, so a command can refuse before running anything.
 */
export function reproUnsupported(scenario: Scenario): string | undefined {
  const { server, client, discovery } = scenario;
  const transport = scenario.transport ?? 'in-memory';
  // The repro script drives the SDK clients only (issue #12's ecosystem lines have no script yet).
  if (client !== 'v1' && client !== 'v2') return `the ${client} client line has no standalone reproduction script`;
  if (discovery === 'definition' && client === 'v1') return 'the v1 client has no callTool toolDefinition option (the harness adapter, not the SDK, refuses it)';
  if (server.kind === 'v2-handler') {
    if (client !== 'v2') return 'the v1 client cannot negotiate with a createMcpHandler server (the harness adapter refuses it)';
    if (discovery !== 'warm' && discovery !== 'cold' && discovery !== 'definition') return `discovery ${discovery} is not served by the createMcpHandler fixture`;
    return undefined;
  }
  if (server.kind === 'helper') {
    if (transport !== 'in-memory') return 'the helper fixtures run in memory only';
    if (discovery !== 'warm' && discovery !== 'cold' && discovery !== 'definition') return `discovery ${discovery} needs the low-level Server`;
    for (const [what, schema] of [['inputSchema', scenario.tool.inputSchema], ['outputSchema', scenario.tool.outputSchema]] as const) {
      const reason = zodUnsupported(schema);
      if (reason) return `the ${what} cannot be written as the zod schema the helper takes (${reason})`;
    }
    return undefined;
  }
  if (transport === 'stdio' && (server.kind !== 'respond' || server.paginate || server.changeTo || server.registration === 'raw')) {
    return 'the stdio fixture answers with a plain result only';
  }
  return undefined;
}

/** The observation as the script prints it: outcome, and isError, structuredContent, error, stage where they apply. */
export function printedObservation(observed: Observation): Record<string, JsonValue> {
  switch (observed.outcome) {
    case 'returned': {
      const printed: Record<string, JsonValue> = { outcome: 'returned' };
      if (observed.isError !== undefined) printed.isError = observed.isError;
      if (Object.hasOwn(observed, 'structuredContent') && observed.structuredContent !== undefined) printed.structuredContent = observed.structuredContent;
      return printed;
    }
    case 'rejected':
      return { outcome: 'rejected', error: { ...observed.error } };
    case 'crashed':
      return { outcome: 'crashed', stage: observed.stage, error: { ...observed.error } };
    case 'timeout':
      return { outcome: 'timeout' };
  }
}

const EXACT_VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

function pinned(packages: ReproInput['packages'], name: string): string {
  const version = packages[name];
  if (!version || !EXACT_VERSION.test(version)) throw new InputError(`--format repro: no exact installed version of ${name} to pin (got ${version ?? 'none'})`);
  return version;
}

/** A local build (tarball or folder) a repro installs from a path the maintainer fills in. */
export interface ReproBuild {
  /** Where package.json expects it, relative to the folder: `build/<key>.tgz` or the folder `build/<key>`. */
  readonly path: string;
  readonly packageName: string;
  readonly version: string;
  readonly label: string;
  readonly source: 'tarball' | 'folder';
  /** npm's SRI hash of the tarball the probe ran; null for a folder (it has none). */
  readonly integrity: string | null;
  /** Which side ran it. */
  readonly role: 'client' | 'server';
}

/** Module roots the script imports from: a package name, or the npm alias that holds another release of it. */
interface Roots {
  readonly sdkServer: string;
  readonly sdkClient: string;
  readonly client: string;
  readonly server: string;
}

export interface DependencyPlan {
  readonly dependencies: Record<string, string>;
  readonly roots: Roots;
  readonly builds: readonly ReproBuild[];
}

interface Use {
  readonly role: 'client' | 'server';
  readonly packageName: string;
  /** What package.json names for it, before aliasing: an exact version, or a local build. */
  readonly version: string;
  readonly build?: Omit<ReproBuild, 'path' | 'role'>;
  /** The release under test: the one that takes an alias when two releases of one package meet. */
  readonly underTest: boolean;
}

/** The alias key of the release under test, where it meets another release of its package (and a build's file name). */
const ALIAS = { client: { [SDK]: 'sdk-client', [CLIENT]: 'client' }, server: { [SDK]: 'sdk-server', [SERVER]: 'server' } } as const;

function releaseUse(role: 'client' | 'server', packageName: string, release: ReleaseIdentity, what: string): Use {
  if (release.packageName !== packageName) throw new Error(`repro: ${what} is ${release.packageName}, not ${packageName}`);
  if (release.source === 'tarball' || release.source === 'folder') {
    const { version, label, source, integrity } = release;
    return { role, packageName, version: label, build: { packageName, version, label, source, integrity }, underTest: true };
  }
  if (!EXACT_VERSION.test(release.version)) throw new InputError(`--format repro: ${what} ${packageName}@${release.version} is not an exact version a package.json can pin`);
  return { role, packageName, version: release.version, underTest: release.source !== 'pinned' };
}

/**
 * The packages the script imports, each at the release that ran. Two releases of one package (the v1
 * client under test beside the fixture's SDK, or a server release under test beside the v1 client) meet
 * through an npm alias (`"sdk-client": "npm:@modelcontextprotocol/sdk@1.31.0"`): the release under test
 * takes the alias, the other keeps the package's name. A local build is a `file:` dependency on a path in
 * the folder that the maintainer puts their build at (README.md says which build the probe ran).
 */
export function dependencyPlan(input: ReproInput): DependencyPlan {
  const { scenario, record, packages, clientRelease, serverRelease } = input;
  const { server } = scenario;
  const client = splitClientPackage(record.clientPackage);
  const clientPackage = scenario.client === 'v1' ? SDK : CLIENT;
  if (client.packageName !== clientPackage) throw new Error(`repro: case ${record.id} ran ${record.clientPackage}, not a ${scenario.client} client`);
  const uses: Use[] = [];
  if (clientRelease) {
    if (clientRelease.label !== client.label) throw new Error(`repro: case ${record.id} ran ${record.clientPackage}, not the release ${clientRelease.label}`);
    uses.push(releaseUse('client', clientPackage, clientRelease, 'the client'));
  } else {
    if (!EXACT_VERSION.test(client.label)) {
      throw new InputError(`--format repro: the case ran ${record.clientPackage}, a local build whose source and integrity this run does not know`);
    }
    uses.push({ role: 'client', packageName: clientPackage, version: client.label, underTest: client.label !== packages[clientPackage] });
  }
  const serverUse = (packageName: string): Use =>
    serverRelease && serverRelease.packageName === packageName
      ? releaseUse('server', packageName, serverRelease, 'the server release')
      : { role: 'server', packageName, version: pinned(packages, packageName), underTest: false };
  // Every fixture but createMcpHandler is (or runs over) the v1 SDK: its Server, McpServer, transports.
  if (server.kind !== 'v2-handler') uses.push(serverUse(SDK));
  if (server.kind === 'v2-handler' || (server.kind === 'helper' && server.helper === 'v2-mcp-server')) uses.push(serverUse(SERVER));
  if (serverRelease && !uses.some((use) => use.role === 'server' && use.packageName === serverRelease.packageName)) {
    throw new Error(`repro: case ${record.id} runs no fixture of ${serverRelease.packageName}`);
  }
  const dependencies: Record<string, string> = {};
  const builds: ReproBuild[] = [];
  const keyOf = new Map<Use, string>();
  for (const use of uses) {
    const same = uses.filter((other) => other.packageName === use.packageName);
    const meets = same.some((other) => other.version !== use.version);
    const alias = ALIAS[use.role][use.packageName as keyof (typeof ALIAS)[typeof use.role]] as string;
    const key = meets && use.underTest ? alias : use.packageName;
    keyOf.set(use, key);
    if (use.build) {
      const path = `build/${alias}${use.build.source === 'tarball' ? '.tgz' : ''}`;
      builds.push({ ...use.build, path, role: use.role });
      dependencies[key] = `file:./${path}`;
    } else dependencies[key] = key === use.packageName ? use.version : `npm:${use.packageName}@${use.version}`;
  }
  // The v1 SDK takes zod as a (required) peer dependency (and the helper scripts import it themselves).
  if (uses.some((use) => use.packageName === SDK)) dependencies.zod = pinned(packages, 'zod');
  const rootOf = (role: 'client' | 'server', packageName: string) => {
    const use = uses.find((u) => u.role === role && u.packageName === packageName);
    return use ? keyOf.get(use)! : packageName;
  };
  return {
    dependencies: sortedObject(dependencies),
    roots: { sdkServer: rootOf('server', SDK), sdkClient: rootOf('client', SDK), client: rootOf('client', CLIENT), server: rootOf('server', SERVER) },
    builds,
  };
}

const sortedObject = <T>(record: Record<string, T>): Record<string, T> => Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));

// Literals of repro.mjs, and its package.json. JSON.stringify leaves DEL, C1, bidi controls and U+2028/2029
// raw: shown by `cat`, they act on a terminal, and in a `//` comment U+2028 ends the line, so the rest of
// the data would run as code. As `\uXXXX` escapes they are the same string in JSON and in a JS literal.
const json = (value: unknown): string => terminalJson(JSON.stringify(value, null, 2));
const oneLine = (value: unknown): string => terminalJson(JSON.stringify(value));

function zodUnsupported(schema: Record<string, JsonValue> | undefined): string | undefined {
  if (schema === undefined) return undefined;
  const properties = (schema.properties ?? {}) as Record<string, { type?: unknown }>;
  for (const [key, property] of Object.entries(properties)) {
    if (property.type !== 'number' && property.type !== 'string') return `${key} has type ${String(property.type)}`;
  }
  return undefined;
}

/** The zod schema the helper fixture builds from a JSON Schema (fixtures/mcp-server.ts), as source text. */
function zodSource(schema: Record<string, JsonValue> | undefined): string | undefined {
  if (schema === undefined) return undefined;
  const properties = (schema.properties ?? {}) as Record<string, { type?: string }>;
  const required = new Set((schema.required ?? []) as string[]);
  const fields = Object.entries(properties).map(
    ([key, property]) => `${/^[A-Za-z_$][\w$]*$/.test(key) ? key : oneLine(key)}: z.${property.type}()${required.has(key) ? '' : '.optional()'}`,
  );
  return `z.object({ ${fields.join(', ')} })${schema.additionalProperties === false ? '.strict()' : ''}`;
}

interface Parts {
  readonly roots: Roots;
  imports: string[];
  constants: string[];
  /** Code that starts the server and defines `connectTransport()`, returning the client's transport. */
  server: string[];
  discovery: string[];
}

function lowLevelHandler(scenario: Scenario): string[] {
  const { server } = scenario;
  switch (server.kind) {
    case 'respond':
      return ['  // A copy, so the client cannot change RESULT (in memory, messages are passed by reference).', '  async () => structuredClone(RESULT),'];
    case 'hang':
      return ['  // Never answers.', '  () => new Promise(() => {}),'];
    case 'throw':
      return [`  async () => {`, `    throw new Error(${oneLine(server.message)});`, '  },'];
    case 'close':
      return ['  // Closes the connection when tools/call arrives, and never answers.', '  async () => {', '    await serverTransport.close();', '    return new Promise(() => {});', '  },'];
    case 'malformed':
      return [
        '  // Answers with a message that is not valid JSON-RPC (neither result nor error), then nothing.',
        '  async (_request, extra) => {',
        "    await serverTransport.send({ jsonrpc: '2.0', id: extra.requestId, outcome: 'done' });",
        '    return new Promise(() => {});',
        '  },',
      ];
    case 'wrong-id':
      return [
        "  // Answers with a valid result carrying another request's id, then nothing.",
        '  async (_request, extra) => {',
        "    await serverTransport.send({ jsonrpc: '2.0', id: `${String(extra.requestId)}-other`, result: structuredClone(RESULT) });",
        '    return new Promise(() => {});',
        '  },',
      ];
    default:
      throw new Error(`repro: ${server.kind} is not a low-level behaviour`);
  }
}

/** The v1 low-level Server, as fixtures/low-level.ts builds it, in a function `startServer(serverTransport)`. */
function lowLevelServer(scenario: Scenario, parts: Parts): string[] {
  const { server } = scenario;
  const respond = server.kind === 'respond' ? server : undefined;
  parts.imports.push(`import { Server } from '${parts.roots.sdkServer}/server/index.js';`);
  parts.imports.push(`import { CallToolRequestSchema, ListToolsRequestSchema } from '${parts.roots.sdkServer}/types.js';`);
  if (server.kind === 'respond' || server.kind === 'wrong-id') parts.constants.push('// The CallToolResult the server answers tools/call with, unchanged.', `const RESULT = ${json(server.result)};`);
  if (respond?.paginate) {
    parts.constants.push(
      '// Listed alone on the first tools/list page, so the tool under test is on the second page.',
      `const DECOY = ${json({ name: 'probe_decoy', description: 'Listed first, so the tool under test is on the second page.', inputSchema: { type: 'object' } })};`,
    );
  }
  if (respond?.changeTo) parts.constants.push('// The definition the server switches to after discovery (then it sends notifications/tools/list_changed).', `const CHANGED_TOOL = ${json(respond.changeTo)};`);
  if (respond?.registration === 'raw') parts.imports.push(`import { Protocol } from '${parts.roots.sdkServer}/shared/protocol.js';`);
  const lines = [
    '/** The v1 low-level Server listing TOOL and answering tools/call. */',
    'async function startServer(serverTransport) {',
    ...(respond?.changeTo ? ['  let listed = TOOL;'] : []),
    `  const server = new Server({ name: 'repro-server', version: '1.0.0' }, { capabilities: { tools: ${respond?.changeTo ? '{ listChanged: true }' : '{}'} } });`,
  ];
  const listed = respond?.changeTo ? 'listed' : 'TOOL';
  if (respond?.paginate) {
    lines.push(
      `  // Two pages: the decoy, then (cursor '${SECOND_PAGE}') the tool under test.`,
      '  server.setRequestHandler(ListToolsRequestSchema, (request) =>',
      `    request.params?.cursor === '${SECOND_PAGE}' ? { tools: [structuredClone(${listed})] } : { tools: [DECOY], nextCursor: '${SECOND_PAGE}' },`,
      '  );',
    );
  } else lines.push(`  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [structuredClone(${listed})] }));`);
  if (respond?.registration === 'raw') {
    lines.push(
      "  // Protocol's own setRequestHandler, not Server's: Server's (since 1.24.0) re-checks the result against",
      '  // CallToolResultSchema before sending; this way the result reaches the client exactly as written.',
      '  Protocol.prototype.setRequestHandler.call(server, CallToolRequestSchema,',
    );
  } else {
    lines.push("  // Server.setRequestHandler, the SDK's public registration (it checks results against CallToolResultSchema).", '  server.setRequestHandler(CallToolRequestSchema,');
  }
  lines.push(...lowLevelHandler(scenario).map((line) => `  ${line}`), '  );', '  await server.connect(serverTransport);');
  if (respond?.changeTo) {
    lines.push(
      '  // After discovery: switch the listed tool and notify the client, then give it a moment to react.',
      '  server.changeTool = async () => {',
      '    listed = CHANGED_TOOL;',
      '    await server.sendToolListChanged();',
      '    await new Promise((resolve) => setTimeout(resolve, 20));',
      '  };',
    );
  }
  lines.push('  return server;', '}');
  return lines;
}

function helperServer(scenario: Scenario, parts: Parts): string[] {
  const server = scenario.server as Extract<Scenario['server'], { kind: 'helper' }>;
  const v1 = server.helper === 'v1-mcp-server';
  parts.imports.push(v1 ? `import { McpServer } from '${parts.roots.sdkServer}/server/mcp.js';` : `import { McpServer } from '${parts.roots.server}';`, "import { z } from 'zod';");
  if (server.result !== 'throw') parts.constants.push('// What the tool handler returns.', `const RESULT = ${json(server.result)};`);
  const config = [
    ...(typeof scenario.tool.description === 'string' ? ['    description: TOOL.description,'] : []),
    ...(scenario.tool.inputSchema ? [`    inputSchema: ${zodSource(scenario.tool.inputSchema)},`] : []),
    ...(scenario.tool.outputSchema ? [`    outputSchema: ${zodSource(scenario.tool.outputSchema)},`] : []),
  ];
  return [
    `/** ${v1 ? 'The v1 McpServer' : "The v2 server package's McpServer"}: registerTool with zod schemas matching TOOL's JSON Schemas. */`,
    'async function startServer(serverTransport) {',
    `  const server = new McpServer({ name: 'repro-server', version: '1.0.0' });`,
    '  server.registerTool(',
    '    TOOL.name,',
    '    {',
    ...config.map((line) => `  ${line}`),
    '    },',
    server.result === 'throw'
      ? "    async () => {\n      throw new Error('The value service is unavailable.');\n    },"
      : '    async () => structuredClone(RESULT),',
    '  );',
    ...(v1 ? [] : ["  // The v2 server drives the v1 SDK's in-memory transport like its own (same Transport contract)."]),
    '  await server.connect(serverTransport);',
    '  return server;',
    '}',
  ];
}

function transportSection(scenario: Scenario, parts: Parts): string[] {
  const transport = scenario.transport ?? 'in-memory';
  const v2 = scenario.client === 'v2';
  if (scenario.server.kind === 'v2-handler') {
    const server = scenario.server;
    parts.imports.push(`import { Server, createMcpHandler } from '${parts.roots.server}';`);
    parts.constants.push('// The CallToolResult the server answers tools/call with.', `const RESULT = ${json(server.result)};`);
    return [
      "// The v2 server package's createMcpHandler serving a v2 low-level Server, which decides the protocol era",
      '// per request. The client reaches it through a fetch function (in process, no socket).',
      'const handler = createMcpHandler(() => {',
      `  const server = new Server({ name: 'repro-server', version: '1' }, { capabilities: { tools: {} } });`,
      "  server.setRequestHandler('tools/list', () => ({ tools: [structuredClone(TOOL)] }));",
      "  server.setRequestHandler('tools/call', () => structuredClone(RESULT));",
      '  return server;',
      '});',
      "const connectTransport = async () => new StreamableHTTPClientTransport(new URL('http://fixture.invalid/mcp'), { fetch: (url, init) => handler.fetch(new Request(url, init)) });",
    ];
  }
  if (transport === 'in-memory') {
    parts.imports.push(`import { InMemoryTransport } from '${parts.roots.sdkServer}/inMemory.js';`);
    return [
      ...(v2 ? ["// In memory: the v1 SDK's linked pair (the v2 client drives it as its own transport; same contract)."] : ['// In memory: a linked pair of transports.']),
      'const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();',
      'const server = await startServer(serverTransport);',
      'const connectTransport = async () => clientTransport;',
    ];
  }
  if (transport === 'http') {
    parts.imports.push("import { randomUUID } from 'node:crypto';", "import { createServer } from 'node:http';", `import { StreamableHTTPServerTransport } from '${parts.roots.sdkServer}/server/streamableHttp.js';`);
    parts.imports.push(v2 ? `import { StreamableHTTPClientTransport } from '${parts.roots.client}';` : `import { StreamableHTTPClientTransport } from '${parts.roots.sdkClient}/client/streamableHttp.js';`);
    return [
      '// Streamable HTTP on a loopback port the OS picks (JSON responses, with sessions).',
      'const serverTransport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), enableJsonResponse: true });',
      'const server = await startServer(serverTransport);',
      'const http = createServer((req, res) => {',
      "  let body = '';",
      "  req.on('data', (chunk) => (body += chunk));",
      "  req.on('end', () => void serverTransport.handleRequest(req, res, body ? JSON.parse(body) : undefined).catch(() => res.destroy()));",
      '});',
      "await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));",
      'const connectTransport = async () => new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${http.address().port}/mcp`));',
    ];
  }
  // stdio: this same file, started with the argument "server", is the server process.
  parts.imports.push("import { fileURLToPath } from 'node:url';", `import { StdioServerTransport } from '${parts.roots.sdkServer}/server/stdio.js';`);
  parts.imports.push(v2 ? `import { StdioClientTransport } from '${parts.roots.client}/stdio';` : `import { StdioClientTransport } from '${parts.roots.sdkClient}/client/stdio.js';`);
  return [
    "// stdio: this same file, started with the argument 'server', is the server process.",
    "if (process.argv[2] === 'server') {",
    '  await startServer(new StdioServerTransport());',
    '} else {',
    '  await reproduce(async () => new StdioClientTransport({ command: process.execPath, args: [fileURLToPath(import.meta.url), \'server\'] }));',
    '}',
  ];
}

function discoverySteps(scenario: Scenario): string[] {
  switch (scenario.discovery) {
    case 'warm':
      return ['    // Discovery: tools/list, as an application calls it first (the client may cache the outputSchema).', '    await client.listTools();'];
    case 'cold':
      return ['    // No discovery: the client calls a tool it has never listed.'];
    case 'definition':
      return ['    // No tools/list: the tool definition is handed to callTool instead.'];
    case 'changed':
      return [
        '    // Discovery, then the server changes the tool and sends notifications/tools/list_changed.',
        '    await client.listTools();',
        '    await server.changeTool();',
      ];
    case 'all-pages':
      return [
        '    // Discovery: every tools/list page, following nextCursor to the end.',
        '    let cursor;',
        '    do cursor = (await client.listTools(cursor === undefined ? undefined : { cursor })).nextCursor;',
        '    while (cursor !== undefined);',
      ];
    case 'one-page':
      return [`    // Discovery: only the tool's own page, fetched with its cursor (the first page is never seen).`, `    await client.listTools({ cursor: '${SECOND_PAGE}' });`];
    case 'tools-automatic':
    case 'tools-with-schemas':
    case 'load-tools':
      // reproUnsupported refuses the ecosystem lines before a script is written.
      throw new Error(`repro: discovery ${scenario.discovery} has no script`);
  }
}

function callExpression(scenario: Scenario): string[] {
  const name = scenario.calledName === undefined ? 'TOOL.name' : oneLine(scenario.calledName);
  const params = `{ name: ${name}, arguments: ${oneLine(scenario.arguments ?? {})} }`;
  const options: string[] = [];
  if (scenario.discovery === 'definition') options.push('toolDefinition: TOOL');
  if (scenario.clientTimeoutMs !== undefined) options.push(`timeout: ${scenario.clientTimeoutMs}`);
  const comment = [
    ...(scenario.calledName !== undefined ? [`    // Calls ${oneLine(scenario.calledName)}, a tool the server does not have.`] : []),
    ...(scenario.clientTimeoutMs !== undefined ? ["    // With the client's own request timeout for this call."] : []),
  ];
  const call =
    options.length === 0
      ? `client.callTool(${params})`
      : scenario.client === 'v1'
        ? `client.callTool(${params}, undefined, { ${options.join(', ')} })`
        : `client.callTool(${params}, { ${options.join(', ')} })`;
  return [...comment, `    const result = await within(${call}, LIMIT_MS);`, "    return result === TIMED_OUT ? { outcome: 'timeout' } : returned(result);"];
}

function clientConnect(scenario: Scenario, parts: Parts): string[] {
  if (scenario.client === 'v1') {
    parts.imports.push(`import { Client } from '${parts.roots.sdkClient}/client/index.js';`);
    return ["    client = new Client({ name: 'repro-client', version: '1.0.0' });", '    await client.connect(await connectTransport());'];
  }
  const modern = scenario.server.kind === 'v2-handler' && scenario.server.era === 'modern';
  parts.imports.push(scenario.server.kind === 'v2-handler' ? `import { Client, StreamableHTTPClientTransport } from '${parts.roots.client}';` : `import { Client } from '${parts.roots.client}';`);
  if (modern) {
    return [
      '    // Let the client discover the server and negotiate the newest protocol era (2026-07-28).',
      "    client = new Client({ name: 'repro-client', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });",
      '    await client.connect(await connectTransport());',
    ];
  }
  return [
    "    client = new Client({ name: 'repro-client', version: '1.0.0' });",
    "    // The plain 2025-era initialize handshake.",
    "    await client.connect(await connectTransport(), { prior: { kind: 'legacy' } });",
  ];
}

function describeSetup(scenario: Scenario, record: CaseRecord): string {
  const server = scenario.server;
  const who =
    server.kind === 'v2-handler'
      ? `the v2 server package's createMcpHandler (${server.era} era)`
      : server.kind === 'helper'
        ? server.helper === 'v1-mcp-server'
          ? 'the v1 McpServer (registerTool)'
          : "the v2 server package's McpServer (registerTool)"
        : `the v1 low-level Server${server.kind === 'respond' && server.registration === 'raw' ? ' (raw Protocol registration)' : ''}`;
  const via = server.kind === 'v2-handler' ? 'a fetch function' : (scenario.transport ?? 'in-memory') === 'in-memory' ? 'in memory' : `over ${scenario.transport}`;
  return `${record.clientPackage} client, ${scenario.discovery} discovery, server: ${who}, ${via}`;
}

/** The repro's limit for a call the probe saw settle (returned, rejected, crashed). */
const SETTLED_LIMIT_MS = 10_000;

/**
 * The generic part of a case script: exit by REPRO_EXIT, import packages as "could not run" when they fail,
 * time limits, what a result or an error is, the comparison with the recorded observation, the answer.
 * Inline in a one-case repro.mjs; in a folder of several, lib.mjs holds it once (REPRO_LIB).
 */
const TOP_HELPERS: readonly string[] = [
  "const UNTIL_FIXED = process.argv.includes('--until-fixed');",
  '/** Says why this run could not observe anything, and exits 125 (git bisect: skip). */',
  'function couldNotRun(why) {',
  '  process.stderr.write(`could not run: ${shown(why)}\\n`);',
  `  process.exit(${REPRO_EXIT.couldNotRun});`,
  '}',
  '// An error nothing here catches would end Node with exit 1, which reads as "reproduced": it could not run.',
  "process.on('uncaughtException', (error) => couldNotRun(`unexpected error: ${String(error?.message ?? error).split('\\n')[0]}`));",
  "process.on('unhandledRejection', (error) => couldNotRun(`unexpected rejection: ${String(error?.message ?? error).split('\\n')[0]}`));",
  '/** A module of a package, with the named exports it must have; could not run when it has not. */',
  'async function load(specifier, names) {',
  '  let module;',
  '  try {',
  '    module = await import(specifier);',
  '  } catch (error) {',
  "    couldNotRun(`cannot import ${specifier} (${String(error?.message ?? error).split('\\n')[0]})`);",
  '  }',
  '  const missing = names.filter((name) => module[name] === undefined);',
  "  if (missing.length > 0) couldNotRun(`${specifier} has no export ${missing.join(', ')}`);",
  '  return module;',
  '}',
  '/** Setup that must work for anything to be observed (starting the server): could not run when it throws. */',
  'async function setup(what, start) {',
  '  try {',
  '    return await start();',
  '  } catch (error) {',
  "    couldNotRun(`${what}: ${String(error?.message ?? error).split('\\n')[0]}`);",
  '  }',
  '}',
  '/** Text from the client or server as one line with no control or bidi character live on a terminal. */',
  'function shown(text) {',
  "  return String(text).replace(/[\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069]/g, (c) => `\\\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);",
  '}',
];
const BOTTOM_HELPERS: readonly string[] = [
  "const TIMED_OUT = Symbol('timed out');",
  '/** `promise`, or TIMED_OUT when it is still pending after `ms`. */',
  'function within(promise, ms) {',
  '  let timer;',
  '  const limit = new Promise((resolve) => (timer = setTimeout(() => resolve(TIMED_OUT), ms)));',
  '  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));',
  '}',
  '',
  '/** The fields of a CallToolResult this reproduction is about. */',
  'function returned(result) {',
  "  const observed = { outcome: 'returned' };",
  "  if (typeof result?.isError === 'boolean') observed.isError = result.isError;",
  '  if (result?.structuredContent !== undefined) observed.structuredContent = JSON.parse(JSON.stringify(result.structuredContent));',
  '  return observed;',
  '}',
  '',
  '/** v1 McpError, v2 ProtocolError (numeric code) or SdkError (string code), or any other Error. */',
  'function describeError(error) {',
  '  if (!(error instanceof Error)) return { name: typeof error, code: null, message: String(error) };',
  "  const name = error.name && error.name !== 'Error' ? error.name : error.constructor.name || 'Error';",
  "  const code = typeof error.code === 'number' || typeof error.code === 'string' ? error.code : null;",
  '  return { name, code, message: error.message };',
  '}',
  '',
  'function reproduces(observed, expected) {',
  '  if (observed.outcome !== expected.outcome) return false;',
  "  if (observed.outcome === 'returned') {",
  '    return observed.isError === expected.isError && isDeepStrictEqual(observed.structuredContent, expected.structuredContent);',
  '  }',
  "  if (observed.outcome === 'rejected' || observed.outcome === 'crashed') {",
  '    return observed.stage === expected.stage && observed.error.name === expected.error.name && observed.error.code === expected.error.code;',
  '  }',
  '  return true;',
  '}',
  '',
  '/** Closes the client, says reproduced or not reproduced, prints the observation, and exits by the rule above. */',
  'async function answer(observed, expected, state) {',
  '  const ok = reproduces(observed, expected);',
  '  // Close the client (for stdio: stops the server process), but do not wait on a hung connection.',
  '  await Promise.race([Promise.resolve(state.client?.close()).catch(() => {}), new Promise((resolve) => setTimeout(resolve, 1000))]);',
  '  process.stderr.write(',
  '    ok',
  '      ? `reproduced: the client ${shown(JSON.stringify(observed))}, as the probe recorded\\n`',
  '      : `not reproduced: the client ${shown(JSON.stringify(observed))}; the probe recorded ${shown(JSON.stringify(expected))}\\n`,',
  '  );',
  `  const code = ok !== UNTIL_FIXED ? ${REPRO_EXIT.reproduced} : ${REPRO_EXIT.notReproduced};`,
  '  process.stdout.write(`${JSON.stringify(observed)}\\n`, () => process.exit(code));',
  '}',
];
const SHARED_IMPORT = "import { answer, describeError, load, returned, setup, TIMED_OUT, within } from '../lib.mjs';";

/** lib.mjs of a folder of several cases: the helpers, exported (the process handlers install on import). */
function sharedLib(): string {
  const exported = [...TOP_HELPERS, '', ...BOTTOM_HELPERS].map((line) => line.replace(/^(async function |function |const )/, 'export $1'));
  return [
    '// The helpers every case script under cases/ imports: exit codes, guarded imports, time limits, the',
    '// comparison with the recorded observation and the answer. By this rule:',
    `// ${REPRO_EXIT_LINE}`,
    "import { isDeepStrictEqual } from 'node:util';",
    '',
    ...exported,
    '',
  ].join('\n');
}

/**
 * The script's import declarations as it runs them: Node's own modules statically; every package through
 * `load()`, so a package that is missing, fails to import or lacks an export is "could not run" (exit 125,
 * git bisect skip), never an observation of the client (issue 21).
 */
function importSection(declarations: readonly string[]): { builtIn: string[]; packages: string[] } {
  const builtIn: string[] = [];
  const packages: string[] = [];
  for (const declaration of new Set(declarations)) {
    const match = /^import \{ (.+) \} from '([^']+)';$/.exec(declaration);
    if (!match) throw new Error(`repro: unexpected import ${declaration}`);
    const [, names, from] = match as unknown as [string, string, string];
    if (from.startsWith('node:')) builtIn.push(declaration);
    else packages.push(`const { ${names} } = await load('${from}', ${oneLine(names.split(', '))});`);
  }
  return { builtIn, packages };
}

/** A case's script; `shared`: for a folder of several, its helpers imported from ../lib.mjs. */
function script(input: ReproInput, plan: DependencyPlan, shared = false): string {
  const { scenario, record } = input;
  const parts: Parts = { roots: plan.roots, imports: shared ? [] : ["import { isDeepStrictEqual } from 'node:util';"], constants: [], server: [], discovery: [] };
  const expected = printedObservation(record.observed);
  // A case the probe saw settle gets a generous limit: only a client that no longer settles should print
  // "timeout", not a loaded machine (a client's own 150 ms request timeout raced a 500 ms limit there).
  const settled = record.observed.outcome !== 'timeout';
  const limitMs = record.observed.outcome === 'timeout' ? record.observed.afterMs : Math.max(input.timeoutMs, SETTLED_LIMIT_MS);
  parts.constants.push('// The tool as tools/list returns it.', `const TOOL = ${json(scenario.tool)};`);
  const serverFunction = scenario.server.kind === 'v2-handler' ? [] : scenario.server.kind === 'helper' ? helperServer(scenario, parts) : lowLevelServer(scenario, parts);
  const stdio = scenario.transport === 'stdio';
  const transport = transportSection(scenario, parts);
  const connect = clientConnect(scenario, parts);
  const header = [
    `// Standalone reproduction of mcp-sdk-probe case ${scenario.id}`,
    // Shown with no line break or control live: a line feed, CR or U+2028 (ECMA-262 LineTerminator) would
    // end the comment and run the rest as code. The client package holds a local build's version, which is
    // whatever the build's package.json says.
    `// (${terminalLine(describeSetup(scenario, record))}).`,
    ...(scenario.question ? [`// Question: ${terminalLine(scenario.question)}`] : []),
    '// It starts the server, makes the client calls the probe made, prints what the client did as one JSON',
    '// line on stdout and one line `reproduced: …` or `not reproduced: …` on stderr, and exits by this rule:',
    `// ${REPRO_EXIT_LINE}`,
  ];
  const imports = importSection(parts.imports);
  const v2Handler = scenario.server.kind === 'v2-handler';
  const body = [
    ...header,
    ...imports.builtIn,
    '',
    ...(shared ? [SHARED_IMPORT] : TOP_HELPERS),
    '',
    ...imports.packages,
    '',
    ...parts.constants,
    '// What the probe recorded. Reproduced = same outcome; for returned, the same isError and structuredContent',
    '// (absence included); for rejected or crashed, the same error name and code (message wording varies).',
    `const EXPECTED = ${json(expected)};`,
    settled
      ? `// The probe saw this call settle; a call still unanswered after this limit is outcome "timeout" (the probe's own limit was ${input.timeoutMs} ms). Connecting and listing`
      : `// The probe's time limit: a call still unanswered after it is outcome "timeout". Connecting and listing`,
    '// get a generous limit of their own, so a slow first start of Node and the SDK does not count.',
    `const LIMIT_MS = ${limitMs};`,
    `const SETUP_LIMIT_MS = ${Math.max(limitMs, 30_000)};`,
    '',
    ...serverFunction,
    ...(serverFunction.length > 0 ? [''] : []),
    ...(stdio
      ? []
      : [
          '/** The fixture server, and how the client reaches it. */',
          'async function startFixture() {',
          ...transport.map((line) => `  ${line}`),
          `  return { ${v2Handler ? '' : 'server, '}connectTransport };`,
          '}',
          '',
        ]),
    "/** Connect, discover, call; what the application gets back from callTool, or what it threw, and when. */",
    'async function observe(connectTransport, state) {',
    "  state.stage = 'connect';",
    '  let client;',
    '  try {',
    '    const ready = await within(',
    '      (async () => {',
    ...[...connect, '    state.client = client;', "    state.stage = 'discover';", ...discoverySteps(scenario)].map((line) => `    ${line}`),
    '      })(),',
    '      SETUP_LIMIT_MS,',
    '    );',
    "    if (ready === TIMED_OUT) return { outcome: 'timeout' };",
    "    state.stage = 'call';",
    '  } catch (error) {',
    "    return { outcome: 'crashed', stage: state.stage, error: describeError(error) };",
    '  }',
    '  try {',
    ...callExpression(scenario),
    '  } catch (error) {',
    "    return { outcome: 'rejected', error: describeError(error) };",
    '  }',
    '}',
    '',
    ...(shared ? [] : BOTTOM_HELPERS),
    '',
    'async function reproduce(connectTransport) {',
    '  const state = {};',
    '  await answer(await observe(connectTransport, state), EXPECTED, state);',
    '}',
    ...(stdio
      ? ['', ...transport]
      : ['', `const { ${v2Handler ? '' : 'server, '}connectTransport } = await setup('cannot start the server', startFixture);`, 'await reproduce(connectTransport);']),
  ];
  return `${body.join('\n')}\n`;
}

/** What the client did, as Markdown for the README: the error's name, code and message are the client's words, escaped. */
function observedSummary(observed: Observation): string {
  const printed = printedObservation(observed);
  const error = (info: { name: string; code: string | number | null; message: string }) =>
    markdownText(`${info.name} ${String(info.code ?? '(no code)')}: ${info.message.split('\n')[0]}`);
  switch (observed.outcome) {
    case 'returned':
      return `returned a result (isError ${String(observed.isError ?? 'absent')}, structuredContent ${Object.hasOwn(printed, 'structuredContent') ? markdownCode(oneLine(printed.structuredContent)) : 'absent'})`;
    case 'rejected':
      return `rejected the call: ${error(observed.error)}`;
    case 'crashed':
      return `threw before the call (at ${observed.stage}): ${error(observed.error)}`;
    case 'timeout':
      return `neither answered nor failed within ${observed.afterMs} ms (timeout)`;
  }
}

/** The local builds the cases' folder installs, each once. */
export function buildsOf(inputs: readonly ReproInput[]): ReproBuild[] {
  const builds: ReproBuild[] = [];
  for (const input of inputs) for (const build of dependencyPlan(input).builds) if (!builds.some((b) => b.path === build.path)) builds.push(build);
  return builds;
}

/** Markdown lines naming each local build the folder of `inputs` installs (what the probe ran, where it goes). */
export function reproBuildLines(inputs: readonly ReproInput[]): string[] {
  return buildLines(buildsOf(inputs));
}

/** README lines that name each local build by what the probe ran, and where the folder expects it. */
function buildLines(builds: readonly ReproBuild[]): string[] {
  return builds.flatMap((build) => [
    `This reproduction runs a local build of ${markdownCode(build.packageName)} (${build.role === 'client' ? 'the client under test' : 'the fixture server under test'}): before ${markdownCode('npm install')}, put ${
      build.source === 'tarball' ? `its package tarball (${markdownCode('npm pack')}) at ${markdownCode(build.path)}` : `its built package folder (with its own dependencies installed) at ${markdownCode(build.path)}, a copy or a symlink`
    }. The probe ran version ${markdownCode(build.version)} (label ${markdownCode(build.label)}${build.integrity ? `, tarball integrity ${markdownCode(build.integrity)}` : ', a folder: no integrity'}).`,
    '',
  ]);
}

function checked(input: ReproInput): void {
  const { scenario, record } = input;
  const reason = reproUnsupported(scenario);
  if (reason) throw new InputError(`--format repro: case ${scenario.id} cannot be reproduced standalone: ${reason}`);
  if (record.id !== scenario.id) throw new Error(`repro: record ${record.id} is not case ${scenario.id}`);
}

/** The folder's files, by name, for one case. Throws InputError when the case cannot be reproduced standalone. */
export function renderRepro(input: ReproInput): Record<string, string> {
  const { scenario, record } = input;
  checked(input);
  const plan = dependencyPlan(input);
  const { dependencies } = plan;
  const packageJson = {
    name: `repro-${scenario.id.replaceAll('/', '-')}`.slice(0, 200),
    version: '1.0.0',
    private: true,
    description: `Standalone reproduction of mcp-sdk-probe case ${scenario.id}`,
    type: 'module',
    scripts: { start: 'node repro.mjs' },
    dependencies,
  };
  // The README is Markdown: the case id, the client package, the question and what the client said are
  // data, escaped by core/escape.ts, so only this template is live (issue 20).
  const readme = [
    `# Reproduction: ${markdownText(scenario.id)}`,
    '',
    `${markdownText(describeSetup(scenario, record))}.${scenario.question ? ` Question: ${markdownText(scenario.question)}` : ''}`,
    '',
    ...buildLines(plan.builds),
    '    npm install --ignore-scripts --no-audit --no-fund && node repro.mjs',
    '',
    `Observed by mcp-sdk-probe with ${Object.entries(dependencies).map(([name, version]) => markdownText(`${name}@${version}`)).join(', ')}: the client ${observedSummary(record.observed)}.`,
    'repro.mjs prints its own observation as one JSON line on stdout and `reproduced: …` or `not reproduced: …` on stderr.',
    REPRO_EXIT_LINE,
    '',
  ];
  return {
    'package.json': `${json(packageJson)}\n`,
    'repro.mjs': script(input, plan),
    'README.md': readme.join('\n'),
  };
}

const SLUG_PATH = /^[a-z0-9]+(?:-[a-z0-9]+)*(?:\/[a-z0-9]+(?:-[a-z0-9]+)*)*$/;

/**
 * Where a case's script sits in a folder of several: its id, `/` as `.`. Ids are kebab-case slug paths
 * (CaseRecordSchema); anything else (`..`, a quote) is refused, so no file lands outside cases/.
 */
export function caseScriptPath(id: string): string {
  if (!SLUG_PATH.test(id)) throw new InputError(`--format repro: case id ${JSON.stringify(id)} is not a kebab-case slug path`);
  return `cases/${id.replaceAll('/', '.')}.mjs`;
}

/**
 * A folder for several cases: one package.json with the union of their pins and aliases, one script per
 * case under cases/ (each the script of `renderRepro` with its helpers imported from lib.mjs, written once
 * for all: the evidence block stays small; `node cases/<case>.mjs` runs one alone), and repro.mjs, which runs each in
 * a process of its own and answers for all by REPRO_SEVERAL_LINE: "every recorded behaviour is present" is
 * what `git bisect run` can search for (the first release where the recorded state is all there), and with
 * --until-fixed "one has gone away" (the first release where any changed). "At least one" would not do: a
 * case that behaves the same in every release (a conforming success) makes every commit bad (review of
 * issue 21). One case: exactly `renderRepro`'s folder.
 */
export function renderReproFolder(inputs: readonly ReproInput[]): Record<string, string> {
  if (inputs.length === 0) throw new Error('repro: no case to reproduce');
  if (inputs.length === 1) return renderRepro(inputs[0]!);
  const dependencies: Record<string, string> = {};
  const builds: ReproBuild[] = [];
  const files: Record<string, string> = {};
  const readmeCases: string[] = [];
  for (const input of inputs) {
    checked(input);
    const plan = dependencyPlan(input);
    for (const [name, spec] of Object.entries(plan.dependencies)) {
      if (dependencies[name] !== undefined && dependencies[name] !== spec) {
        throw new InputError(`--format repro: the cases need ${name} as both ${dependencies[name]} and ${spec}; reproduce them in separate folders`);
      }
      dependencies[name] = spec;
    }
    for (const build of plan.builds) if (!builds.some((b) => b.path === build.path)) builds.push(build);
    const path = caseScriptPath(input.scenario.id);
    files[path] = script(input, plan, true);
    readmeCases.push(`- ${markdownCode(input.scenario.id)} (${markdownCode(path)}): ${markdownText(describeSetup(input.scenario, input.record))}; the probe saw the client ${observedSummary(input.record.observed)}.`);
  }
  const ids = inputs.map((input) => input.scenario.id);
  const packageJson = {
    name: 'repro-mcp-sdk-probe-cases',
    version: '1.0.0',
    private: true,
    description: `Standalone reproduction of ${inputs.length} mcp-sdk-probe cases`,
    type: 'module',
    scripts: { start: 'node repro.mjs' },
    dependencies: sortedObject(dependencies),
  };
  const runner = [
    `// Standalone reproduction of ${inputs.length} mcp-sdk-probe cases: runs each script under cases/ in a`,
    '// process of its own, prints one line per case and a summary, and exits by these rules:',
    `// ${REPRO_EXIT_LINE}`,
    `// ${REPRO_SEVERAL_LINE}`,
    "import { spawnSync } from 'node:child_process';",
    "import { fileURLToPath } from 'node:url';",
    '',
    "const UNTIL_FIXED = process.argv.includes('--until-fixed');",
    `const CASES = ${json(ids.map((id) => [id, caseScriptPath(id)]))};`,
    'const counts = { reproduced: 0, notReproduced: 0, couldNotRun: 0 };',
    'for (const [id, file] of CASES) {',
    '  // Each case script answers by the single-case convention (no --until-fixed): 1, 0 or 125, with its verdict',
    '  // line. A script that ended otherwise (a crash is exit 1 too) could not run: only the pair counts.',
    '  const run = spawnSync(process.execPath, [fileURLToPath(new URL(file, import.meta.url))], { encoding: \'utf8\', timeout: 180_000 });',
    "  const said = (run.stderr ?? '').split('\\n').find((line) => /^(reproduced|not reproduced|could not run): /.test(line));",
    `  const kind = run.status === ${REPRO_EXIT.reproduced} && said?.startsWith('reproduced: ') ? 'reproduced' : run.status === ${REPRO_EXIT.notReproduced} && said?.startsWith('not reproduced: ') ? 'notReproduced' : 'couldNotRun';`,
    '  counts[kind] += 1;',
    "  const line = kind === 'couldNotRun' && !said?.startsWith('could not run: ') ? `could not run: the script ended with ${run.status ?? run.signal ?? run.error?.code}` : said;",
    '  process.stdout.write(`${id}: ${line}\\n`);',
    '}',
    'process.stdout.write(',
    '  `summary: ${counts.reproduced} of ${CASES.length} cases reproduced, ${counts.notReproduced} did not, ${counts.couldNotRun} could not run\\n`,',
    ');',
    'const present = counts.reproduced === CASES.length;',
    `process.exit(counts.couldNotRun > 0 ? ${REPRO_EXIT.couldNotRun} : present !== UNTIL_FIXED ? ${REPRO_EXIT.reproduced} : ${REPRO_EXIT.notReproduced});`,
    '',
  ];
  const readme = [
    `# Reproduction: ${inputs.length} mcp-sdk-probe cases`,
    '',
    ...readmeCases,
    '',
    ...buildLines(builds),
    '    npm install --ignore-scripts --no-audit --no-fund && node repro.mjs',
    '',
    `Pinned: ${Object.entries(packageJson.dependencies).map(([name, version]) => markdownText(`${name}@${version}`)).join(', ')}.`,
    'repro.mjs prints one line per case (`reproduced: …`, `not reproduced: …` or `could not run: …`) and a summary; `node cases/<case>.mjs` runs one case alone.',
    REPRO_EXIT_LINE,
    REPRO_SEVERAL_LINE,
    '',
  ];
  return { 'package.json': `${json(packageJson)}\n`, 'repro.mjs': runner.join('\n'), 'README.md': readme.join('\n'), 'lib.mjs': sharedLib(), ...files };
}

import manifest from '../../package.json' with { type: 'json' };

/** This harness's own name and version, as clients and servers introduce themselves and results record. */
export const HARNESS = { name: manifest.name, version: manifest.version } as const;

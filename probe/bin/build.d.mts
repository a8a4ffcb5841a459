export declare const PROJECT_ROOT: string;
export declare const CLI_BUNDLE: string;
export declare const SWEEP_WORKER_BUNDLE: string;
export declare const FIXTURE_STDIO_BUNDLE: string;
export declare const LIBRARY_BUNDLE: string;
export declare function hasSources(root?: string): boolean;
export declare function sourceStamp(root?: string): string;
export declare function bundleIsFresh(stamp?: string): boolean;
export declare function buildCli(stamp?: string): Promise<void>;

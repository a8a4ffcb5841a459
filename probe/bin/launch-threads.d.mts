// Types of launch-threads.mjs (plain JavaScript: it runs before the bundle), for the tests that use it.
import type { Worker } from 'node:worker_threads';

export declare const LAUNCH_THREAD: unique symbol;
export declare const YOUNG_GENERATION_MB: number;
export declare function runsCases(args: readonly string[]): boolean;
export declare function startLaunchThread(bundle: string): { worker: Worker; board: SharedArrayBuffer; exited: boolean };
export declare const LAUNCH_SWEEP_WORKER: unique symbol;
export declare function runsSweep(args: readonly string[]): boolean;
export declare function startLaunchSweepWorker(bundle: string): { worker: Worker; exited: boolean };
export declare const BOARD_BYTES: number;

// Types of server-build.mjs (plain JavaScript, so `npm start` needs no TypeScript loader).
import type { BuildOptions } from 'esbuild';

export declare const SERVER_OUT: string;
export declare const NODE_BUNDLE: BuildOptions;
export declare function serverBuildIsStale(): boolean;
export declare function buildServer(): Promise<void>;
export declare function removeOldChunks(
  dir: string,
  names: readonly string[],
  written: ReadonlySet<string>,
  now: number,
): void;

/** Types of source-stamp.mjs (a plain module, run by Node without TypeScript). */
import type { Plugin } from 'vite';

export function sourceStamp(paths: readonly string[]): string | null;
export function readStamp(file: string): string | null;
export function webSources(repoRoot: string): string[];
export function webStampFile(webDir: string): string;
export function writeStamp(file: string, stamp: string | null): void;
export function sourceStampPlugin(options: {
  sources: () => readonly string[];
  outDir: string;
  stampFile: string;
}): Plugin;

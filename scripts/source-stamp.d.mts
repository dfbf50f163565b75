/** Types of source-stamp.mjs (a plain module, run by Node without TypeScript). */
export function sourceStamp(paths: readonly string[]): string | null;
export function readStamp(file: string): string | null;
export function writeStamp(file: string, stamp: string | null): void;

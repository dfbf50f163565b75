#!/usr/bin/env node
/**
 * Runs Biome (lint + format) from its platform package.
 *
 * Why not `@biomejs/biome`: that wrapper lists optional binaries for every platform, and the registry
 * this project installs from serves only the Linux ones, so `npm ci` rejects a lock file without them.
 * The project's machines are Linux x64, so we depend on `@biomejs/cli-linux-x64` directly.
 * On another platform: `npm install --no-save @biomejs/cli-<platform>-<arch>@<same version>`.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const platformPackage = `@biomejs/cli-${process.platform}-${process.arch}`;
let binary;
try {
  binary = join(dirname(require.resolve(`${platformPackage}/package.json`)), 'biome');
} catch {
  console.error(`Biome binary package ${platformPackage} is not installed (see scripts/biome.mjs).`);
  process.exit(2);
}
const result = spawnSync(binary, process.argv.slice(2), { stdio: 'inherit' });
process.exit(result.status ?? 1);

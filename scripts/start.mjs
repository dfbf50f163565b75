// `npm start`: builds the server into dist/server when it is missing or made from other sources
// (scripts/server-build.mjs, well under a second), then runs it in this process, so this process is
// the server (signals, pid) and no TypeScript loader is involved.

import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildServer, SERVER_OUT, serverBuildIsStale } from './server-build.mjs';

if (serverBuildIsStale()) await buildServer();
await import(pathToFileURL(join(SERVER_OUT, 'main.js')).href);

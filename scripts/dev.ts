/**
 * `npm run dev`: the server (tsx watch, restarts on change, on :3000 unless PORT says otherwise) and
 * Vite's dev server (hot reload; proxies /socket.io, /api and /healthz to the server on that same
 * PORT, see vite.config.ts)
 * side by side. Ctrl-C stops both; if either exits, the other is stopped too.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name: string) => join(root, 'node_modules', '.bin', name);

function run(label: string, command: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['inherit', 'pipe', 'pipe'],
  });
  const prefix = (stream: NodeJS.ReadableStream | null, out: NodeJS.WriteStream) => {
    let rest = '';
    stream?.on('data', (chunk: Buffer) => {
      const lines = (rest + chunk.toString()).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) out.write(`[${label}] ${line}\n`);
    });
  };
  prefix(child.stdout, process.stdout);
  prefix(child.stderr, process.stderr);
  return child;
}

const children = [
  // The server does not build the web app in dev: Vite serves it from source.
  run('server', bin('tsx'), ['watch', '--clear-screen=false', 'src/server/main.ts'], { SKIP_WEB_BUILD: '1' }),
  run('web', bin('vite'), ['--config', join(root, 'vite.config.ts')], {}),
];

let stopping = false;
function stop(code: number): void {
  if (stopping) return;
  stopping = true;
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 3000).unref();
  Promise.all(
    children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))),
  ).then(() => process.exit(code));
}

for (const child of children) child.once('exit', (code) => stop(code ?? 0));
process.once('SIGINT', () => stop(0));
process.once('SIGTERM', () => stop(0));

/**
 * Test support: a redis-server of the test's own, on a free port with a data directory of its own,
 * for what the shared Redis (REDIS_URL) must not undergo: being stopped, paused or reconfigured. Needs
 * the redis-server binary (Debian's redis-server package, which provides the machine's Redis).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../free-port';
import { connectRedis } from '../store/redis-client';

/** Whether a redis-server binary is on PATH. */
export function hasRedisServer(): boolean {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A redis-server child process: started with `args` (after port, bind and dir), restartable on its port. */
export class PrivateRedis {
  readonly dir = mkdtempSync(join(tmpdir(), 'chipless-private-redis-'));
  private child: ChildProcess | null = null;
  private port = 0;

  constructor(private readonly args: readonly string[]) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts it (on the port it had, after a stop) and waits until it answers. */
  async start(): Promise<void> {
    if (this.port === 0) this.port = await freePort();
    this.child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.dir, ...this.args],
      { stdio: 'ignore' },
    );
    for (let i = 0; i < 100; i++) {
      try {
        const c = await connectRedis(this.url, { connectTimeoutMs: 200 });
        c.destroy();
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    throw new Error('private redis-server did not start');
  }

  /** Sends `signal` (SIGSTOP, SIGCONT) to the running server. */
  signal(signal: NodeJS.Signals): void {
    this.child?.kill(signal);
  }

  /** Kills it (SIGKILL: what it has not written to its files is gone) and waits for the exit. */
  async stop(): Promise<void> {
    const c = this.child;
    this.child = null;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    await new Promise((resolve) => {
      c.once('exit', resolve);
      c.kill('SIGKILL');
    });
  }

  /** Stops it and deletes its directory. */
  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

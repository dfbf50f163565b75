import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger';
import { isOutage, OUTAGE_SUMMARY_EVERY_MS, OutageLog } from './outage-log';
import { RoomService } from './room-service';
import { createSqliteStore } from './store/sqlite-store';

/** A logger whose lines (parsed) land in `lines`. */
function capture() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split('\n')) if (l.trim()) lines.push(JSON.parse(l));
      done();
    },
  });
  return { lines, logger: createLogger('info', sink) };
}

const named = (name: string) => Object.assign(new Error(`${name} message`), { name });

describe('commands failing while the store is down (session 36 operability audit: 512 stacks in 30 s)', () => {
  it('the first is logged without its stack, the rest counted every 10 s, the end said; other failures whole', () => {
    const { lines, logger } = capture();
    let now = 1_000;
    const log = new OutageLog(logger, () => now);
    for (let i = 0; i < 50; i++) {
      log.failed(named('RedisNotReadyError'), { room: 'ABCDE', type: 'act' });
      now += 300; // 50 failures over 15 s
    }
    log.succeeded();
    log.succeeded();
    log.failed(new Error('a bug'), { room: 'ABCDE', type: 'act' });
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [50, 'command failed: the store is unavailable (further failures are counted, every 10 s)'],
      [50, 'commands failing: the store is unavailable'],
      [40, 'the store is available again'],
      [50, 'command failed'],
    ]);
    expect(lines[0]).toMatchObject({ reason: 'RedisNotReadyError', room: 'ABCDE', type: 'act' });
    expect(lines[0]!.err).toBeUndefined();
    expect(lines[1]).toMatchObject({ failed: Math.ceil(OUTAGE_SUMMARY_EVERY_MS / 300), sinceMs: 10_200 });
    expect(lines[2]).toMatchObject({ reason: 'RedisNotReadyError', failed: 50, lastedMs: 15_000 });
    expect((lines[3]!.err as { stack?: string }).stack).toContain('a bug');
  });

  it('knows an outage by name or ENOSPC, nothing else', () => {
    for (const name of ['RedisNotReadyError', 'RedisDeadlineError', 'DataDirFullError'])
      expect(isOutage(named(name)), name).toBe(true);
    expect(isOutage(Object.assign(new Error('write failed'), { code: 'ENOSPC' }))).toBe(true);
    expect(isOutage(new Error('Something else'))).toBe(false);
    expect(isOutage('RedisNotReadyError')).toBe(false);
  });

  it('the room service logs through it', async () => {
    const { lines, logger } = capture();
    const dir = mkdtempSync(join(tmpdir(), 'chipless-outage-'));
    const raw = createSqliteStore({ dataDir: dir });
    let down = false;
    const store = {
      ...raw,
      save: (...args: Parameters<typeof raw.save>) =>
        down ? Promise.reject(named('RedisNotReadyError')) : raw.save(...args),
    };
    const service = new RoomService({
      store,
      logger,
      now: () => 1_800_000_000_000,
      broadcaster: { async snapshot() {}, async gone() {} },
    });
    try {
      const created = await service.createRoom('host', 'c1', 'Ann', 5_000);
      if (!created.ok) throw new Error(created.error);
      const code = created.record.room.roomCode;
      down = true;
      for (let i = 0; i < 3; i++)
        expect(
          await service.execute(code, 'guest', `j${i}`, { type: 'join', name: 'Bob', startingChips: 5_000 }),
        ).toEqual({
          ok: false,
          error: 'Something went wrong',
        });
      down = false;
      expect(
        (await service.execute(code, 'guest', 'j9', { type: 'join', name: 'Bob', startingChips: 5_000 })).ok,
      ).toBe(true);
      const outage = lines.filter((l) => String(l.msg).includes('store'));
      expect(outage.map((l) => l.msg)).toEqual([
        'command failed: the store is unavailable (further failures are counted, every 10 s)',
        'the store is available again',
      ]);
    } finally {
      await raw.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

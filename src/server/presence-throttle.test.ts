/**
 * Presence changes are told to a room at most once a second, the last one always (the session-33
 * security audit: a stranger flapping a connection flooded every phone at the table with snapshots).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { presenceThrottle } from './presence-throttle';
import { PRESENCE_TOLD_EVERY_MS } from './socket-gateway';
import { okData, sleep, startServer, TestClient, type TestServer } from './test-helpers';

describe('presenceThrottle', () => {
  it('tells at once, then once at the end of the window for any number of changes in it', async () => {
    const told: string[] = [];
    const throttle = presenceThrottle(100, (room) => told.push(room));
    expect(throttle.take('A')).toBe(true);
    for (let i = 0; i < 50; i++) expect(throttle.take('A')).toBe(false);
    // Another room has its own window.
    expect(throttle.take('B')).toBe(true);
    await sleep(150);
    expect(told).toEqual(['A']);
    // The scheduled telling opened a new window.
    expect(throttle.take('A')).toBe(false);
    await sleep(150);
    expect(told).toEqual(['A', 'A']);
    throttle.close();
  });
});

describe('a stranger flapping a connection (regression, session 33 security audit)', () => {
  let server: TestServer;
  const clients: TestClient[] = [];
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await server.close();
  });

  it('resumes the room 40 times: the table gets a few snapshots, and the last presence', async () => {
    const ana = await TestClient.connect(server.url);
    clients.push(ana);
    const code = okData(await ana.createRoom('Ana', 5_000)).room.roomCode;
    const stranger = await TestClient.connect(server.url);
    okData(await stranger.joinRoom(code, 'Zed', 5_000));
    stranger.close();
    await ana.waitFor(() => ana.latest?.presence[stranger.playerId] === false, 5_000, 'Zed offline');
    await sleep(PRESENCE_TOLD_EVERY_MS + 100);
    const before = ana.snapshots.length;
    const started = performance.now();
    for (let i = 0; i < 40; i++) {
      const again = await TestClient.connect(server.url, { token: stranger.token });
      okData(await again.resume(code));
      again.close();
    }
    const seconds = (performance.now() - started) / 1_000;
    await sleep(PRESENCE_TOLD_EVERY_MS + 300);
    // 80 changes (40 in, 40 out): at most one a second told, plus the first and the last.
    expect(ana.snapshots.length - before).toBeLessThanOrEqual(Math.ceil(seconds) + 2);
    expect(ana.snapshots.length - before).toBeGreaterThanOrEqual(1);
    expect(ana.latest?.presence[stranger.playerId]).toBe(false);
  });
});

/**
 * A player takes over as host over the wire (`claimHost`), by the server's clock: the host's phone gone
 * (closed), the table waiting on the host to deal. Refused a second early, accepted at 3 minutes; every
 * phone gets the new host, who deals on; the old host, back, is a player.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOST_AWAY_MS } from '../engine';
import { okData, startServer, TestClient, type TestServer } from './test-helpers';

let server: TestServer;
let clock = Date.UTC(2030, 0, 1, 20);
const clients: TestClient[] = [];

beforeAll(async () => {
  server = await startServer({ now: () => clock });
});
afterAll(async () => {
  for (const c of clients) c.close();
  await server.close();
});

const connect = async (token?: string) => {
  const c = await TestClient.connect(server.url, token ? { token } : {});
  clients.push(c);
  return c;
};

describe('taking over as host', () => {
  it('refused before the table has waited 3 minutes, accepted at 3; the new host deals, the old one cannot', async () => {
    const ana = await connect();
    const ben = await connect();
    const cal = await connect();
    const code = okData(await ana.createRoom('Ana', 5_000)).room.roomCode;
    for (const [c, name] of [
      [ben, 'Ben'],
      [cal, 'Cal'],
    ] as const) {
      okData(await c.joinRoom(code, name, 5_000));
      okData(await ana.command(code, { type: 'approve', playerId: c.playerId }));
    }
    okData(await ana.command(code, { type: 'startGame' }));
    // Everyone calls or checks: the host must deal the flop. Ana acts first (dealer), then Ben, Cal.
    for (const c of [ana, ben, cal]) okData(await c.command(code, { type: 'act', action: 'CALL' }));
    const last = (await server.store.load(code))!;
    expect(last.room.gameState.canAdvanceStage).toBe(true);
    ana.close(); // the host's phone went flat

    clock += HOST_AWAY_MS - 1_000;
    expect(await ben.command(code, { type: 'claimHost' })).toEqual({
      ok: false,
      error: 'The host can be replaced only after the table has waited 3 minutes for them',
    });
    clock += 1_000;
    const { version } = okData(await ben.command(code, { type: 'claimHost' }));
    const seen = await cal.waitForVersion(version);
    expect(seen.room.hostId).toBe(ben.playerId);
    expect(seen.room.log.at(-1)).toMatchObject({
      type: 'hostChanged',
      playerId: ben.playerId,
      claimed: true,
    });
    okData(await ben.command(code, { type: 'advanceStage' }));

    // Ana's phone is back: a player now, her host powers gone.
    const back = await connect(ana.token);
    expect(await back.command(code, { type: 'advanceStage' })).toEqual({
      ok: false,
      error: 'Only the host can advance stages',
    });
    expect((await server.store.load(code))!.room.gameState.stage).toBe('FLOP');
  });
});

/**
 * Stacks past the wire's cap on one amount (MAX_AMOUNT_CENTS, $100,000,000.00): a rebuy may be up to
 * that, and a host may give several, so a stack, an all-in and the call facing it can be larger. The
 * act's amount and its `facing.toCall` must still get through (the engine checks them against the
 * stack): until session 41 the schema capped them at one rebuy's limit, so the raise dialog's All-In
 * was refused ('Invalid request') and so was the call facing such a bet, from every phone: the hand
 * could not go on (the layout review found it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { facingOf } from '../engine';
import { MAX_AMOUNT_CENTS } from '../shared/limits';
import { okData, startServer, TestClient, type TestServer } from './test-helpers';

let server: TestServer;
const clients: TestClient[] = [];

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  for (const c of clients) c.close();
  await server.close();
});

describe('stakes past one rebuy', () => {
  it('an all-in of $200,000,050.00 and the call facing it go through, to the cent', async () => {
    const ana = await TestClient.connect(server.url);
    const ben = await TestClient.connect(server.url);
    clients.push(ana, ben);
    const code = okData(await ana.createRoom('Ana', 5_000)).room.roomCode;
    okData(await ben.joinRoom(code, 'Ben', 5_000));
    okData(await ana.command(code, { type: 'approve', playerId: ben.playerId }));
    for (const who of [ana.playerId, ana.playerId, ben.playerId, ben.playerId])
      okData(await ana.command(code, { type: 'rebuy', playerId: who, amount: MAX_AMOUNT_CENTS }));
    okData(await ana.command(code, { type: 'startGame' }));
    // Heads-up: Ana deals and posts the small blind ($1.00); she goes all-in, as the dialog sends it.
    const stack = 2 * MAX_AMOUNT_CENTS + 5_000;
    let room = (await server.store.load(code))!.room;
    expect(room.gameState.currentTurnPlayerId).toBe(ana.playerId);
    okData(
      await ana.command(code, {
        type: 'act',
        action: 'RAISE',
        amount: stack,
        facing: facingOf(room, ana.playerId),
      }),
    );
    room = (await server.store.load(code))!.room;
    const facing = facingOf(room, ben.playerId);
    expect(facing.toCall).toBe(stack - 200);
    expect(facing.toCall).toBeGreaterThan(MAX_AMOUNT_CENTS);
    okData(await ben.command(code, { type: 'act', action: 'CALL', facing }));
    room = (await server.store.load(code))!.room;
    expect(room.players[ana.playerId]!.stack).toBe(0);
    expect(room.players[ben.playerId]!.stack).toBe(0);
    expect(room.gameState.pots.reduce((sum, p) => sum + p.amount, 0)).toBe(2 * stack);
  });

  it('still refuses what is no amount at all: a fraction, a negative, past a safe integer', async () => {
    const ana = await TestClient.connect(server.url);
    clients.push(ana);
    const code = okData(await ana.createRoom('Ana', 5_000)).room.roomCode;
    for (const amount of [1.5, -1, Number.MAX_SAFE_INTEGER + 1]) {
      expect(await ana.command(code, { type: 'act', action: 'RAISE', amount })).toEqual({
        ok: false,
        error: 'Invalid request',
      });
      expect(
        await ana.command(code, {
          type: 'act',
          action: 'CALL',
          facing: { handNumber: 1, stage: 'PRE_FLOP', toCall: amount },
        }),
      ).toEqual({ ok: false, error: 'Invalid request' });
    }
  });
});

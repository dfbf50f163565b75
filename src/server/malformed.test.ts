/**
 * Integration: malformed messages of every kind get 'Invalid request' (or nothing, without an ack
 * function); the connection, the server and the room go on unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVALID_REQUEST } from '../shared/protocol';
import {
  emitWithAck,
  getJson,
  okData,
  sleep,
  startServer,
  TestClient,
  type TestServer,
} from './test-helpers';

let server: TestServer;
let host: TestClient;
let code: string;
let version: number;

const invalid = { ok: false, error: INVALID_REQUEST };

beforeAll(async () => {
  server = await startServer();
  host = await TestClient.connect(server.url);
  const snap = okData(await host.createRoom('Hana', 5000));
  code = snap.room.roomCode;
  version = snap.version;
});
afterAll(async () => {
  host.close();
  await server.close();
});

/** The room is exactly as before and the connection still answers. */
async function roomIntact(client: TestClient = host): Promise<void> {
  const stored = await server.store.load(code);
  expect(stored?.version).toBe(version);
  const snap = okData(await client.resume(code));
  expect(snap.version).toBe(version);
}

const validCommand = { commandId: 'c1', roomCode: 'ABCDE', command: { type: 'startGame' } };

const cases: Array<[string, string, unknown]> = [
  ['createRoom: missing fields', 'createRoom', {}],
  ['createRoom: wrong types', 'createRoom', { commandId: 1, name: 2, startingChips: '50' }],
  ['createRoom: negative chips', 'createRoom', { commandId: 'c', name: 'x', startingChips: -1 }],
  ['createRoom: fractional cents', 'createRoom', { commandId: 'c', name: 'x', startingChips: 10.5 }],
  ['createRoom: NaN-ish chips', 'createRoom', { commandId: 'c', name: 'x', startingChips: null }],
  ['createRoom: huge name', 'createRoom', { commandId: 'c', name: 'x'.repeat(10_000), startingChips: 5000 }],
  ['createRoom: extra field', 'createRoom', { commandId: 'c', name: 'x', startingChips: 5000, hostId: 'me' }],
  ['createRoom: a string payload', 'createRoom', 'hello'],
  ['createRoom: an array payload', 'createRoom', [1, 2, 3]],
  ['createRoom: null payload', 'createRoom', null],
  ['joinRoom: bad code', 'joinRoom', { commandId: 'c', roomCode: 'AB-DE', name: 'x', startingChips: 5000 }],
  ['joinRoom: long code', 'joinRoom', { commandId: 'c', roomCode: 'ABCDEF', name: 'x', startingChips: 5000 }],
  ['resume: missing code', 'resume', {}],
  ['resume: number code', 'resume', { roomCode: 12345 }],
  ['command: no command', 'command', { commandId: 'c', roomCode: 'ABCDE' }],
  ['command: unknown type', 'command', { ...validCommand, command: { type: 'dealCards' } }],
  ['command: forged actor', 'command', { ...validCommand, command: { type: 'startGame', actorId: 'x' } }],
  [
    'command: raise with string amount',
    'command',
    { ...validCommand, command: { type: 'act', action: 'RAISE', amount: '100' } },
  ],
  ['command: unknown action', 'command', { ...validCommand, command: { type: 'act', action: 'CHEAT' } }],
  [
    'command: facing an unknown stage',
    'command',
    {
      ...validCommand,
      command: { type: 'act', action: 'CALL', facing: { handNumber: 1, stage: 'DEAL', toCall: 0 } },
    },
  ],
  [
    'command: facing a negative call',
    'command',
    {
      ...validCommand,
      command: { type: 'act', action: 'CALL', facing: { handNumber: 1, stage: 'FLOP', toCall: -5 } },
    },
  ],
  [
    'command: facing with more in it',
    'command',
    {
      ...validCommand,
      command: { type: 'act', action: 'CALL', facing: { handNumber: 1, stage: 'FLOP', toCall: 0, seen: 1 } },
    },
  ],
  [
    'command: amount too large',
    'command',
    { ...validCommand, command: { type: 'rebuy', playerId: 'p', amount: 1e300 } },
  ],
  [
    'command: infinite amount',
    'command',
    { ...validCommand, command: { type: 'rebuy', playerId: 'p', amount: Number.MAX_VALUE } },
  ],
  [
    'command: winners not an array',
    'command',
    { ...validCommand, command: { type: 'declareWinners', winnerIds: 'p1' } },
  ],
  [
    'command: too many winners',
    'command',
    { ...validCommand, command: { type: 'declareWinners', winnerIds: Array(50).fill('p') } },
  ],
  ['command: empty command id', 'command', { ...validCommand, commandId: '' }],
  ['command: huge command id', 'command', { ...validCommand, commandId: 'x'.repeat(200) }],
  [
    'command: __proto__ payload',
    'command',
    JSON.parse('{"__proto__":{"polluted":true},"commandId":"c","roomCode":"ABCDE"}'),
  ],
  [
    'command: deep nesting',
    'command',
    { ...validCommand, command: JSON.parse(`${'['.repeat(2000)}${']'.repeat(2000)}`) },
  ],
];

describe('malformed payloads', () => {
  for (const [title, event, payload] of cases) {
    it(`${title} -> Invalid request`, async () => {
      expect(await emitWithAck(host.socket, event, payload)).toEqual(invalid);
      await roomIntact();
    });
  }

  it('no prototype pollution', () => {
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('an unknown event with an ack -> Invalid request; the connection goes on', async () => {
    expect(await emitWithAck(host.socket, 'dropTables', { all: true })).toEqual(invalid);
    expect(await emitWithAck(host.socket, 'session', {})).toEqual(invalid);
    await roomIntact();
  });

  it('a message over 16 KB -> Invalid request; the connection goes on', async () => {
    const big = {
      commandId: 'c',
      roomCode: code,
      command: { type: 'join', name: 'x'.repeat(17 * 1024), startingChips: 5000 },
    };
    expect(await emitWithAck(host.socket, 'command', big)).toEqual(invalid);
    expect(host.socket.connected).toBe(true);
    await roomIntact();
  });

  it('binary payloads -> Invalid request', async () => {
    expect(await emitWithAck(host.socket, 'command', Buffer.alloc(100))).toEqual(invalid);
    expect(await emitWithAck(host.socket, 'command', Buffer.alloc(20 * 1024))).toEqual(invalid);
    await roomIntact();
  });

  it('messages without an ack function are ignored, the connection goes on', async () => {
    const raw = host.socket as unknown as { emit(ev: string, ...args: unknown[]): void };
    raw.emit('command', { nonsense: true });
    raw.emit('command');
    raw.emit('createRoom', 'x');
    raw.emit('whatever', 1, 2, 3);
    raw.emit('command', {
      commandId: 'c-noack',
      roomCode: code,
      command: { type: 'updateSettings', smallBlind: 1, bigBlind: 2 },
    });
    await sleep(100);
    // The valid one was applied (acks are optional), the others did nothing.
    version += 1;
    await roomIntact();
  });

  it('an ack function in place of the payload -> Invalid request', async () => {
    const raw = host.socket as unknown as {
      timeout(ms: number): { emitWithAck(ev: string, ...args: unknown[]): Promise<unknown> };
    };
    expect(await raw.timeout(2000).emitWithAck('command')).toEqual(invalid);
  });

  it('a message far over the limit costs only that connection; the server and room go on', async () => {
    const attacker = await TestClient.connect(server.url);
    const disconnected = new Promise<void>((resolve) => attacker.socket.once('disconnect', () => resolve()));
    (attacker.socket as unknown as { emit(ev: string, p: unknown): void }).emit('command', {
      x: 'y'.repeat(200_000),
    });
    await disconnected;
    expect((await getJson(server.url, '/healthz')).status).toBe(200);
    await roomIntact();
    const again = await TestClient.connect(server.url, { token: attacker.token });
    expect(again.playerId).toBe(attacker.playerId);
    again.close();
  });

  it('commands for rooms the sender is not in change nothing', async () => {
    const stranger = await TestClient.connect(server.url);
    expect(await stranger.command(code, { type: 'updateSettings', smallBlind: 1, bigBlind: 2 })).toEqual({
      ok: false,
      error: 'Only the host can update settings',
    });
    expect(await stranger.command(code, { type: 'act', action: 'FOLD' })).toEqual({
      ok: false,
      error: 'You are not in this game',
    });
    // A stranger's leave is the engine's no-op: acknowledged at the room's version, nothing written.
    expect(await stranger.command(code, { type: 'leave' })).toEqual({ ok: true, data: { version } });
    expect(stranger.snapshots).toEqual([]);
    stranger.close();
    await roomIntact();
  });

  it('the long-polling transport gets the same treatment', async () => {
    const poller = await TestClient.connect(server.url, { transports: ['polling'] });
    expect(await emitWithAck(poller.socket, 'command', { bad: 1 })).toEqual(invalid);
    expect(await emitWithAck(poller.socket, 'command', { x: 'y'.repeat(20_000) })).toEqual(invalid);
    poller.close();
    await roomIntact();
  });
});

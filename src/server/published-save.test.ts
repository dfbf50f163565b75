/**
 * Redis mode: a commit's snapshot goes to the other processes from the save itself (the store's script
 * publishes it with the write, RoomStore.publishesOnSave) and to this process's sockets after it, so
 * the adapter publishes nothing of its own for it. Commits that subscribe the sender (a join) or remove
 * a player keep the adapter's broadcast after the save, so 'gone' still comes before the snapshot.
 * Two applications in this process, each with its own Redis store and Redis adapter on one key prefix.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RoomSnapshot } from '../shared/protocol';
import { createRedisAdapter, type RedisAdapterHandle } from './redis-adapter';
import { LOG_MARK, roomJson } from './room-json';
import { deleteKeysWithPrefix, REDIS_URL, redisGate, uniqueKeyPrefix } from './scale-out/redis-available';
import { createRedisStore } from './store/redis-store';
import type { RoomStore } from './store/room-store';
import { okData, sleep, startServer, TestClient, type TestServer } from './test-helpers';

const gate = await redisGate('published-save');

interface Node {
  server: TestServer;
  store: RoomStore;
  adapter: RedisAdapterHandle;
  /** The versions of the commit broadcasts of `roomCode` this process's adapter published itself. */
  adapterCommits: (roomCode: string) => number[];
}

/**
 * A commit's broadcast carries the events it logged (log delta from the previous version); presence
 * settles rebroadcast the same version with no events (broadcaster.ts, presence.ts), so they are not
 * counted as commits here.
 */
const isCommit = (s: RoomSnapshot) => s.room.log.length > 0;

/** Runs after each save of `store`, before the commit goes on (other rooms' work in the round trip). */
let afterSave: () => void = () => {};

async function startNode(keyPrefix: string): Promise<Node> {
  const store = await createRedisStore(REDIS_URL, { keyPrefix });
  const save = store.save.bind(store);
  store.save = async (...args) => {
    const saved = await save(...args);
    afterSave();
    return saved;
  };
  const adapter = await createRedisAdapter(REDIS_URL, { keyPrefix });
  const server = await startServer({ store, adapter: adapter.adapter });
  const pub = (server.app.io.of('/').adapter as unknown as { pubClient: { publish: () => unknown } })
    .pubClient;
  const spy = vi.spyOn(pub, 'publish');
  const adapterCommits = (roomCode: string) =>
    spy.mock.calls.flatMap((call) => {
      const [channel, message] = call as unknown as [string, string];
      if (!channel.endsWith(`#${roomCode}#`)) return [];
      const [, packet] = JSON.parse(message) as [string, { data: [string, RoomSnapshot] }];
      const [event, snapshot] = packet.data;
      return event === 'room' && isCommit(snapshot) ? [snapshot.version] : [];
    });
  return { server, store, adapter, adapterCommits };
}

/** The commit broadcasts of `version` a phone received. */
const received = (client: TestClient, version: number): RoomSnapshot[] =>
  client.snapshots.filter((s) => s.version === version && isCommit(s));

describe.skipIf(gate.skip)('a commit published by its save (Redis)', () => {
  const keyPrefix = uniqueKeyPrefix('published-save');
  let a: Node;
  let b: Node;
  const clients: TestClient[] = [];

  beforeAll(async () => {
    gate.check();
    a = await startNode(keyPrefix);
    b = await startNode(keyPrefix);
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    for (const node of [a, b]) {
      if (!node) continue;
      await node.server.close();
      await node.adapter.close();
      await node.store.close();
    }
    if (gate.available) await deleteKeysWithPrefix(keyPrefix);
  });

  /** A room opened by a host on `hostNode` and joined (not yet approved) by a guest on `guestNode`. */
  async function hostAndGuest(hostNode: Node, guestNode: Node) {
    const host = await TestClient.connect(hostNode.server.url);
    const guest = await TestClient.connect(guestNode.server.url);
    clients.push(host, guest);
    const code = okData(await host.createRoom('Hana', 5000)).room.roomCode;
    const joined = okData(await guest.joinRoom(code, 'Gus', 5000)).version;
    await host.waitForVersion(joined);
    return { host, guest, code, joined };
  }

  for (const [hostSide, guestSide] of [
    ['a', 'b'],
    ['b', 'a'],
  ] as const) {
    it(`reaches every phone exactly once, host on ${hostSide}, guest on ${guestSide}; the adapter publishes only for the join`, async () => {
      const nodes = { a, b };
      const [hostNode, guestNode] = [nodes[hostSide], nodes[guestSide]];
      const { host, guest, code, joined } = await hostAndGuest(hostNode, guestNode);
      // A join subscribes the sender after the save: the adapter's broadcast, after the save.
      expect(guestNode.adapterCommits(code)).toEqual([joined]);

      // The host's commands (its socket is in the room): published by the save, not by the adapter.
      const approved = await host.must(code, { type: 'approve', playerId: guest.playerId });
      const blinds = await host.must(code, { type: 'updateSettings', smallBlind: 50, bigBlind: 100 });
      await guest.waitForVersion(blinds);
      await host.waitForVersion(blinds);
      expect(hostNode.adapterCommits(code)).toEqual([]);
      expect(guestNode.adapterCommits(code)).toEqual([joined]);
      for (const version of [approved, blinds]) {
        expect(received(host, version)).toHaveLength(1);
        expect(received(guest, version)).toHaveLength(1);
      }
      expect(guest.latest!.room.players[guest.playerId]!.isApproved).toBe(true);
      expect(guest.latest!.room.settings.bigBlind).toBe(100);
      expect(guest.latest!.room).toEqual(host.latest!.room);
      expect(guest.latest!.version).toBe((await hostNode.store.load(code))!.version);
    });
  }

  it("stringifies a commit's room once, though other rooms' are stringified while its save is in Redis", async () => {
    // Both on one process: another process encodes what it receives again, from its own parse.
    const { host, guest, code } = await hostAndGuest(a, a);
    const other = (await a.store.load(code))!.room;
    // Each skeleton roomJson makes is one JSON.stringify of the room with the mark for its log.
    const spy = vi.spyOn(JSON, 'stringify');
    const skeletons = (roomCode: string) =>
      spy.mock.calls.filter(([value]) => {
        const v = value as { log?: unknown; roomCode?: unknown } | null;
        return v?.log === LOG_MARK && v.roomCode === roomCode;
      }).length;
    // Another room's JSON in between, as when other rooms' commands run during the round trip.
    afterSave = () => roomJson({ ...other, roomCode: 'ZZZZZ' });
    try {
      const approved = await host.must(code, { type: 'approve', playerId: guest.playerId });
      await host.waitForVersion(approved);
      await guest.waitForVersion(approved);
      expect(skeletons('ZZZZZ')).toBe(1);
      // The snapshot's JSON made for the publication is the one sent to this process's sockets.
      expect(skeletons(code)).toBe(1);
      expect(received(host, approved)).toHaveLength(1);
      expect(received(guest, approved)).toHaveLength(1);
      expect(host.latest!.room).toEqual(guest.latest!.room);
      expect(host.latest!.room.players[guest.playerId]!.isApproved).toBe(true);
    } finally {
      afterSave = () => {};
      spy.mockRestore();
    }
  });

  it('a removal keeps the adapter path: the removed phone hears gone and not the snapshot that removed it', async () => {
    const { host, guest, code } = await hostAndGuest(a, b);
    const removed = await host.must(code, { type: 'remove', playerId: guest.playerId });
    await guest.waitFor(() => guest.gone.length > 0, 5000, 'gone');
    expect(guest.gone).toEqual([{ roomCode: code, reason: 'removed' }]);
    expect(a.adapterCommits(code)).toEqual([removed]);
    await host.waitForVersion(removed);
    expect(received(host, removed)).toHaveLength(1);
    expect(received(guest, removed)).toHaveLength(0);
  });

  it('a removal on one process: the removed phone there hears gone and no snapshot after it (regression)', async () => {
    // Socket.IO's Redis adapter makes socketsLeave a request through Redis, applied here only when it
    // comes back: the commit's broadcast (sent here at once) reached the removed phone, and so did the
    // next commits' until then, though 'gone' says no more snapshots of that room come.
    for (const command of ['remove', 'leave'] as const) {
      const { host, guest, code } = await hostAndGuest(a, a);
      const removed =
        command === 'remove'
          ? await host.must(code, { type: 'remove', playerId: guest.playerId })
          : await guest.must(code, { type: 'leave' });
      const next = await host.must(code, { type: 'updateSettings', smallBlind: 50, bigBlind: 100 });
      await host.waitForVersion(next);
      await guest.waitFor(() => guest.gone.length > 0, 5000, 'gone');
      expect(guest.gone).toEqual([{ roomCode: code, reason: command === 'remove' ? 'removed' : 'left' }]);
      await sleep(100);
      expect(guest.snapshots.filter((s) => s.version >= removed)).toEqual([]);
    }
  });
});

/**
 * A long poker night on one phone: the tab stays open while hundreds of hands are played.
 *
 * Ann hosts and Dan plays on real phones (Chromium pages); Bob and Cat are Socket.IO clients from Node
 * (`TestPlayer`, the scale-out suites' client). The first hands are played through Ann's and Dan's
 * screens; then a second connection with each phone's own token (a "twin": the same player, the way a
 * second tab is) plays their turns too, so hundreds of hands take seconds while both pages receive and
 * render every snapshot. The hands follow an 8-hand cycle that leaves every stack where it was: four
 * hands folded round to the big blind (over an orbit each player pays the small blind once and wins it
 * once), then four checked down to a showdown split between all four (everyone put in the big blind).
 * So hands 20 and 396 start in the same state: same dealer, same stacks, the same 50 log events.
 * The first fold-round hand also checks that "Bob wins!" goes when Ann deals again within its 3 s (it
 * used to stay over the next hands: Table.tsx).
 *
 * At hands 20, 100, 196 and 396 each page is measured after a forced GC (CDP): JS heap, DOM nodes,
 * event listeners, documents, live timers (a wrapper around setTimeout/setInterval installed before the
 * app), a heap census (React fibers, Socket.IO emitter listeners, detached DOM nodes), local and
 * session storage, and (printed, not asserted: speed is the bench's) how long a snapshot takes from the
 * WebSocket message to the DOM change and the main thread's time per hand.
 */
import type { CDPSession, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { TestPlayer } from '../src/server/scale-out/process-harness';
import { chiplessSuite, eventually, expectHidden, expectVisible, type Phone } from './browser';
import { button, dialog, enterRoom, hostControls, seat, yourTurn } from './screen';

/** Installed before the app's scripts: live timers, and the time from a 'room' message to the DOM change. */
const PROBE = () => {
  const w = window as unknown as Record<string, unknown>;
  const live = new Map<number, 'timeout' | 'interval'>();
  const { setTimeout: st, clearTimeout: ct, setInterval: si, clearInterval: ci } = window;
  window.setTimeout = ((fn: TimerHandler, ms?: number, ...args: unknown[]) => {
    let id = 0;
    const run =
      typeof fn === 'function'
        ? (...a: unknown[]) => {
            live.delete(id);
            (fn as (...x: unknown[]) => void)(...a);
          }
        : fn;
    id = st(run, ms, ...args);
    live.set(id, 'timeout');
    return id;
  }) as typeof window.setTimeout;
  window.setInterval = ((fn: TimerHandler, ms?: number, ...args: unknown[]) => {
    const id = si(fn, ms, ...args);
    live.set(id, 'interval');
    return id;
  }) as typeof window.setInterval;
  window.clearTimeout = ((id?: number) => {
    if (id !== undefined) live.delete(id);
    ct(id);
  }) as typeof window.clearTimeout;
  window.clearInterval = ((id?: number) => {
    if (id !== undefined) live.delete(id);
    ci(id);
  }) as typeof window.clearInterval;
  const latencies: number[] = [];
  let pending: number | null = null;
  let rendered = 0;
  const Ws = window.WebSocket;
  window.WebSocket = class extends Ws {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      this.addEventListener('message', (e) => {
        if (typeof e.data === 'string' && e.data.startsWith('42["room"') && pending === null)
          pending = performance.now();
      });
    }
  };
  new MutationObserver(() => {
    rendered++;
    if (pending === null) return;
    latencies.push(performance.now() - pending);
    pending = null;
  }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  w.chiplessProbe = {
    timers: () => live.size,
    rendered: () => rendered,
    settled: () => pending === null,
    takeLatencies: () => latencies.splice(0),
  };
};

interface Probe {
  timers(): number;
  rendered(): number;
  settled(): boolean;
  takeLatencies(): number[];
}
declare global {
  interface Window {
    chiplessProbe: Probe;
  }
}

/** A heap census from a heap snapshot: objects found by their property names (minified code keeps those). */
interface Census {
  fibers: number;
  emitterListeners: number;
  detachedNodes: number;
}

async function heapCensus(cdp: CDPSession): Promise<Census> {
  let json = '';
  const onChunk = (e: { chunk: string }) => {
    json += e.chunk;
  };
  cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
  await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
  const snap = JSON.parse(json) as {
    snapshot: {
      meta: {
        node_fields: string[];
        node_types: [string[]];
        edge_fields: string[];
        edge_types: [string[]];
      };
    };
    nodes: number[];
    edges: number[];
    strings: string[];
  };
  const { meta } = snap.snapshot;
  const nf = meta.node_fields.length;
  const ef = meta.edge_fields.length;
  const nType = meta.node_fields.indexOf('type');
  const nName = meta.node_fields.indexOf('name');
  const nEdges = meta.node_fields.indexOf('edge_count');
  const nDetached = meta.node_fields.indexOf('detachedness');
  const eType = meta.edge_fields.indexOf('type');
  const eName = meta.edge_fields.indexOf('name_or_index');
  const eTo = meta.edge_fields.indexOf('to_node');
  const nodeTypes = meta.node_types[0];
  const edgeTypes = meta.edge_types[0];
  const { nodes, edges, strings } = snap;
  const count = nodes.length / nf;
  const firstEdge = new Int32Array(count + 1);
  for (let i = 0, e = 0; i < count; i++) {
    firstEdge[i] = e;
    e += nodes[i * nf + nEdges]! * ef;
  }
  firstEdge[count] = edges.length;
  const propertyEdges = (i: number) => {
    const out = new Map<string, number>();
    for (let e = firstEdge[i]!; e < firstEdge[i + 1]!; e += ef) {
      if (edgeTypes[edges[e + eType]!] !== 'property') continue;
      out.set(strings[edges[e + eName]!]!, edges[e + eTo]! / nf);
    }
    return out;
  };
  const elementCount = (i: number) => {
    let n = 0;
    for (let e = firstEdge[i]!; e < firstEdge[i + 1]!; e += ef)
      if (edgeTypes[edges[e + eType]!] === 'element') n++;
    return n;
  };
  let fibers = 0;
  let emitterListeners = 0;
  let detachedNodes = 0;
  for (let i = 0; i < count; i++) {
    const type = nodeTypes[nodes[i * nf + nType]!];
    const name = strings[nodes[i * nf + nName]!]!;
    if (
      type === 'native' &&
      (name.startsWith('Detached ') || (nDetached >= 0 && nodes[i * nf + nDetached] === 2))
    )
      detachedNodes++;
    if (type !== 'object') continue;
    const props = propertyEdges(i);
    if (props.has('memoizedProps') && props.has('alternate') && props.has('stateNode')) fibers++;
    const callbacks = props.get('_callbacks');
    if (callbacks !== undefined) {
      for (const [key, list] of propertyEdges(callbacks))
        if (key.startsWith('$')) emitterListeners += elementCount(list);
    }
  }
  return { fibers, emitterListeners, detachedNodes };
}

interface Metrics {
  hand: number;
  /** Main-thread task time per hand over the stretch of fast hands before the checkpoint. */
  taskMsPerHand?: number;
  /** Median time from a 'room' message to the DOM change, over the hand after the checkpoint. */
  latencyMs?: number;
  heapMB: number;
  nodes: number;
  domElements: number;
  listeners: number;
  documents: number;
  timers: number;
  storage: number;
  census: Census;
}

async function measure(page: Page, cdp: CDPSession, hand: number): Promise<Metrics> {
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const { metrics } = await cdp.send('Performance.getMetrics');
  const m = Object.fromEntries(metrics.map((x) => [x.name, x.value]));
  const inPage = await page.evaluate(() => ({
    domElements: document.getElementsByTagName('*').length,
    timers: window.chiplessProbe.timers(),
    storage: [localStorage, sessionStorage].reduce((sum, s) => {
      let n = 0;
      for (let i = 0; i < s.length; i++) {
        const k = s.key(i)!;
        n += k.length + (s.getItem(k)?.length ?? 0);
      }
      return sum + n;
    }, 0),
  }));
  const census = await heapCensus(cdp);
  return {
    hand,
    heapMB: Math.round((m.JSHeapUsedSize! / 1_048_576) * 100) / 100,
    nodes: m.Nodes!,
    listeners: m.JSEventListeners!,
    documents: m.Documents!,
    census,
    ...inPage,
  };
}

async function taskMs(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return metrics.find((x) => x.name === 'TaskDuration')!.value * 1000;
}

type Kind = 'fold' | 'split';
/** The 8-hand cycle: four hands folded round to the big blind, then four checked down and split. */
const kindOf = (hand: number): Kind => (Math.floor(hand / 4) % 2 === 0 ? 'fold' : 'split');
/**
 * Where the phones are measured: the start of a hand at the same point of the cycle (4 mod 8, so
 * the same dealer and the same 50 events in the hand log), each followed by a checked-down hand.
 */
const CHECKPOINTS = [20, 100, 196, 396];

const bots: TestPlayer[] = [];
let annTwin: TestPlayer;
let danTwin: TestPlayer;
const chipless = chiplessSuite({
  phones: ['Ann', 'Dan'],
  // The twins play a hand in ~50 ms, far above a person's 20 commands a second per connection:
  // only the command rate limit is lifted.
  server: { env: { COMMAND_RATE_PER_SEC: '1000', COMMAND_BURST: '1000' } },
  beforeEnd: () => {
    for (const b of [...bots, annTwin, danTwin]) b?.disconnect();
  },
});
const { phones } = chipless;
let ann: Phone;
let dan: Phone;
let code = '';
const cdps = new Map<Phone, CDPSession>();
const results = new Map<Phone, Metrics[]>();
const latencies = new Map<Phone, number[]>();

beforeAll(async () => {
  [ann, dan] = phones as [Phone, Phone];
  for (const p of phones) {
    await p.page.addInitScript(PROBE);
    const cdp = await p.context.newCDPSession(p.page);
    await cdp.send('Performance.enable');
    cdps.set(p, cdp);
    results.set(p, []);
    latencies.set(p, []);
  }
});

/** A second connection of the phone's own player (its token from local storage). */
async function twinOf(p: Phone): Promise<TestPlayer> {
  const creds = await p.page.evaluate(() => JSON.parse(localStorage.getItem('chipless.credentials')!));
  const twin = new TestPlayer(`${p.name}'s twin`);
  twin.creds = creds;
  await twin.connect(chipless.server.url);
  expect(twin.id).toBe(creds.playerId);
  twin.roomCode = code;
  await twin.resume();
  return twin;
}

/** Plays the current hand of `kind` through the twins and bots, then deals the next one. */
async function playFast(kind: Kind, after?: () => Promise<void>): Promise<void> {
  const byId = new Map([annTwin, danTwin, ...bots].map((p) => [p.id, p]));
  for (let step = 0; step < 100; step++) {
    const snap = annTwin.latest!;
    const gs = snap.room.gameState;
    let version: number;
    if (gs.stage === 'SHOWDOWN') {
      const pot = gs.pots.reduce((s, p) => s + p.amount, 0);
      version =
        pot === 0
          ? await annTwin.must({ type: 'newHand' })
          : await annTwin.must({ type: 'declareWinners', winnerIds: gs.pots[0]!.eligiblePlayers });
      if (pot === 0) {
        await annTwin.waitForVersion(version);
        await after?.();
        return;
      }
    } else if (gs.currentTurnPlayerId) {
      version = await byId.get(gs.currentTurnPlayerId)!.must({
        type: 'act',
        action: kind === 'fold' ? 'FOLD' : 'CALL',
      });
    } else if (gs.canAdvanceStage) {
      version = await annTwin.must({ type: 'advanceStage' });
    } else throw new Error(`hand stuck: ${JSON.stringify(gs)}`);
    await annTwin.waitForVersion(version);
    await after?.();
  }
  throw new Error('hand did not end');
}

/** Both pages show hand `hand` and have rendered every snapshot they were sent. */
async function settle(hand: number): Promise<void> {
  for (const p of phones) {
    await expectVisible(p.page.getByRole('list', { name: `Hand #${hand}` }));
    await eventually(async () => {
      const before = await p.page.evaluate(() => window.chiplessProbe.rendered());
      await p.page.waitForTimeout(300);
      const now = await p.page.evaluate(() =>
        window.chiplessProbe.settled() ? window.chiplessProbe.rendered() : -1,
      );
      if (now !== before) throw new Error(`${p.name} still rendering`);
    });
  }
}

const handNow = () => annTwin.latest!.room.gameState.handNumber;

describe('a long night on one phone', () => {
  chipless.stopAtFirstFailure('long-night-');

  it('Ann hosts, Dan joins on his phone, Bob and Cat from Node; the first hands through the screens', async () => {
    await enterRoom(ann.page, 'Start a Game', { name: 'Ann', chips: '50' });
    code = ((await ann.page.locator('.room-code').textContent()) ?? '').replace(/\s+/g, '');
    await enterRoom(dan.page, 'Join with Code', { name: 'Dan', chips: '50', code });
    await button(ann.page, 'Approve Dan').click();
    for (const name of ['Bob', 'Cat']) {
      const bot = new TestPlayer(name);
      await bot.connect(chipless.server.url);
      await bot.joinRoom(code, name, 5_000);
      bots.push(bot);
      await button(ann.page, `Approve ${name}`).click();
    }
    await button(ann.page, 'Start Game').click();
    annTwin = await twinOf(ann);
    danTwin = await twinOf(dan);
    await expectVisible(ann.page.getByRole('list', { name: 'Hand #1' }));

    // Hand 1 through the screens: folded round; Ann deals the next hand while "… wins!" shows.
    const screens = new Map([
      [annTwin.id, ann],
      [danTwin.id, dan],
    ]);
    const byId = new Map(bots.map((b) => [b.id, b]));
    const playUi = async (action: 'Fold' | 'call') => {
      for (;;) {
        const gs = annTwin.latest!.room.gameState;
        if (gs.stage === 'SHOWDOWN') return;
        const phone = gs.currentTurnPlayerId ? screens.get(gs.currentTurnPlayerId) : undefined;
        const from = annTwin.latest!.version;
        if (phone) {
          const turn = yourTurn(phone.page);
          await (action === 'Fold' ? button(turn, 'Fold') : button(turn, /^(Check|Call \$[\d.]+)$/)).click();
          await expectHidden(yourTurn(phone.page));
        } else if (gs.currentTurnPlayerId) {
          await byId
            .get(gs.currentTurnPlayerId)!
            .must({ type: 'act', action: action === 'Fold' ? 'FOLD' : 'CALL' });
        } else {
          await button(hostControls(ann.page), gs.nextStageName!).click();
        }
        await eventually(async () => {
          if (annTwin.latest!.version === from) throw new Error('no new version yet');
        });
      }
    };
    await playUi('Fold');
    for (const p of phones) await expectVisible(p.page.locator('.win-overlay'));
    await button(hostControls(ann.page), 'New Hand').click();
    await expectVisible(ann.page.getByRole('list', { name: 'Hand #2' }));
    // The overlay is the hand's: it is gone within its 3 s, also when the next hand came first.
    for (const p of phones) await expectHidden(p.page.locator('.win-overlay'), 5_000);

    // Hand 2: checked down through the screens, Ann advances each stage and splits the pot four ways.
    await playUi('call');
    await button(hostControls(ann.page), 'Declare Winner').click();
    const box = dialog(ann.page, 'Declare Winner');
    for (const name of ['Ann', 'Bob', 'Cat', 'Dan']) await box.getByLabel(name).check();
    await button(box, 'Award Split Pot').click();
    await expectHidden(box);
    await button(hostControls(ann.page), 'New Hand').click();
    for (const p of phones) await expectVisible(p.page.getByRole('list', { name: 'Hand #3' }));
    await expectVisible(seat(dan.page, 'Dan'));
  });

  it('hundreds of hands later the phones hold no more than they did, and render as fast', async () => {
    for (const target of CHECKPOINTS) {
      const fromHand = handNow();
      const taskStart = new Map<Phone, number>();
      for (const p of phones) taskStart.set(p, await taskMs(cdps.get(p)!));
      while (handNow() < target) await playFast(kindOf(handNow()));
      await settle(target);
      for (const p of phones) {
        const perHand = ((await taskMs(cdps.get(p)!)) - taskStart.get(p)!) / (target - fromHand);
        const m = await measure(p.page, cdps.get(p)!, target);
        results.get(p)!.push({ ...m, taskMsPerHand: Math.round(perHand * 10) / 10 });
      }
      // Hand `target` (checked down: ~22 snapshots) at a person's pace: each snapshot on both screens
      // before the next command, so each latency is one snapshot's, from its message to the DOM change.
      for (const p of phones) await p.page.evaluate(() => window.chiplessProbe.takeLatencies());
      await playFast(kindOf(handNow()), async () => {
        for (const p of phones) await p.page.waitForFunction(() => window.chiplessProbe.settled());
      });
      for (const p of phones) {
        const l = (await p.page.evaluate(() => window.chiplessProbe.takeLatencies())).sort((x, y) => x - y);
        expect(l.length, `${p.name}: snapshots timed in hand ${target}`).toBeGreaterThanOrEqual(15);
        results.get(p)!.at(-1)!.latencyMs = Math.round(l[l.length >> 1]! * 10) / 10;
      }
    }
    for (const p of phones) {
      const all = results.get(p)!;
      console.info(`${p.name}:\n${all.map((m) => JSON.stringify(m)).join('\n')}`);
      const [first, mid] = all as [Metrics, Metrics];
      const last = all.at(-1)!;
      // Exactly the same page at every checkpoint from hand 100 on (the same point of the 8-hand cycle):
      // DOM, listeners, timers (Socket.IO's heartbeat), Socket.IO's own listeners, storage; measured
      // constant from hand 100 to 800 in every run. Anything added per hand or per snapshot grows
      // here (a listener added per snapshot: 321, 1571, 2771, 5271). Hand 20 is left out for the
      // listeners only: in some runs Chromium's count steps up once by 13 (321 → 334, 317 → 330)
      // between hands 20 and 100 and then stays, in others it never moves.
      const shape = (m: Metrics) => ({
        documents: m.documents,
        nodes: m.nodes,
        domElements: m.domElements,
        listeners: m.listeners,
        timers: m.timers,
        emitterListeners: m.census.emitterListeners,
        detachedNodes: m.census.detachedNodes,
        storage: m.storage,
      });
      for (const m of all.slice(1)) expect(shape(m), `${p.name} at hand ${m.hand}`).toEqual(shape(mid));
      expect({ ...shape(first), listeners: 0 }, `${p.name} at hand 20`).toEqual({
        ...shape(mid),
        listeners: 0,
      });
      expect(first.documents).toBe(1);
      // React keeps a fiber per element and, for what re-rendered, its alternate: between one and two
      // fibers per element, measured 342–429 at every checkpoint. A tree or subtree kept per hand would
      // add hundreds over 376 hands.
      for (const m of all)
        expect(m.census.fibers, `${p.name}: fibers at hand ${m.hand}`).toBeLessThanOrEqual(
          first.census.fibers * 1.3,
        );
      // JS heap after GC, measured 3.94–4.13 MB at hand 20/24, 4.15–4.34 at 100/104, 4.44–4.59 at
      // 396/400 and 4.48–4.61 at 800: the growth is V8's optimized code (InstructionStream,
      // TrustedByteArray) and Chromium's performance-timeline buffers, both leveling off. At most 1.07×
      // from hand 100 to 396/400; 1.15× leaves room for JIT variance. Every snapshot kept (a deliberate
      // leak) made it 6.57 → 12.47 MB (1.9×).
      expect(last.heapMB, `${p.name}: heap at hand ${last.hand} vs ${mid.hand}`).toBeLessThanOrEqual(
        mid.heapMB * 1.15,
      );
      // Speed is not asserted here (timed tests flake on a busy machine; speed is the bench's): the
      // render time from message to DOM (measured medians 4–13 ms at every checkpoint, early and late)
      // and the main thread's time per hand (164–203 ms at first, JIT warm-up; 55 from hand 196 on)
      // are printed for whoever reads the run.
      console.log(
        `[long-night] ${p.name}: ${all
          .map(
            (m) =>
              `hand ${m.hand}: heap ${m.heapMB.toFixed(2)} MB, render ${m.latencyMs?.toFixed(1)} ms, ${m.taskMsPerHand?.toFixed(0)} ms/hand`,
          )
          .join('; ')}`,
      );
    }
  });
});

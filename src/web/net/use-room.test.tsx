import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MSG } from '../../engine';
import type { Room } from '../../engine/types';
import { logDelta } from '../../shared/log-delta';
import {
  type Ack,
  GAME_STILL_GOING,
  type RoomSnapshot,
  type SeatClaim,
  type SeatLinkResponse,
  SOMETHING_WENT_WRONG,
  TOO_MANY_REQUESTS,
} from '../../shared/protocol';
import { actNow, lobby, snapshot, step } from '../test/rooms';
import { notices } from '../texts';
import type { RoomClient, RoomClientEvents, RoomClientFactory } from './client';
import { NO_CONNECTION_ERROR } from './client';
import {
  LAST_RESULTS_MS,
  LEFT_GAME_RESULTS_MS,
  LOG_GAP_WAIT_MS,
  RESUME_RETRY_MS,
  RESUME_SERVER_RETRIES,
  useRoom,
} from './use-room';

afterEach(cleanup);
afterEach(() => {
  vi.unstubAllGlobals();
});
beforeEach(() => localStorage.clear());

function fakeClient(resume: Ack<RoomSnapshot> = { ok: false, error: 'Room not found' }) {
  let events!: RoomClientEvents;
  const client = {
    createRoom: vi.fn(async (): Promise<Ack<RoomSnapshot>> => ({ ok: true, data: snap })),
    joinRoom: vi.fn(async (): Promise<Ack<RoomSnapshot>> => ({ ok: true, data: snap })),
    resume: vi.fn(async () => resume),
    command: vi.fn(async (): Promise<Ack<{ version: number }>> => ({ ok: true, data: { version: 2 } })),
    seatLink: vi.fn(async (): Promise<Ack<SeatLinkResponse>> => ({ ok: false, error: 'x' })),
    claimSeat: vi.fn(async (): Promise<Ack<SeatClaim>> => ({ ok: false, error: 'x' })),
    seatRoom: vi.fn((): string | null => null),
    goBackToOwn: vi.fn(),
    close: vi.fn(),
  } satisfies RoomClient;
  const factory: RoomClientFactory = (e) => {
    events = e;
    return client;
  };
  return { client, factory, emit: () => events };
}

const room = lobby(['Ana', 'Ben']);
const snap = snapshot(room);

/** A hand's rooms, one a command: the lobby (0), the start (1), three calls (2–4) and the flop (5). */
function handRooms(): Room[] {
  const rooms = [lobby(['Ana', 'Ben', 'Cal'])];
  rooms.push(step(rooms[0]!, 'ana', { type: 'startGame' }));
  for (let i = 0; i < 3; i++) rooms.push(actNow(rooms.at(-1)!, 'CALL'));
  rooms.push(step(rooms.at(-1)!, 'ana', { type: 'advanceStage' }));
  return rooms;
}

/** `r` whole, as version `version`, in room `code`. */
const whole = (r: Room, version: number, code = 'ABCDE'): RoomSnapshot => ({
  ...snapshot({ ...r, roomCode: code }),
  version,
});

/** The hook, its room created at `first`; a resume answers `resume`. */
async function createdAt(first: RoomSnapshot, resume: RoomSnapshot) {
  const { client, factory, emit } = fakeClient({ ok: true, data: resume });
  client.createRoom.mockResolvedValueOnce({ ok: true, data: first });
  const { result } = renderHook(() => useRoom(factory));
  await act(async () => {
    await result.current.createRoom('Ana', 5_000);
  });
  return { client, emit, result };
}

describe('useRoom', () => {
  it('resumes the remembered room when the server sends the session', async () => {
    localStorage.setItem('chipless.roomCode', 'ABCDE');
    const { client, factory, emit } = fakeClient({ ok: true, data: snap });
    const { result } = renderHook(() => useRoom(factory));
    expect(result.current.resuming).toBe(true);
    expect(result.current.connection).toBe('connecting');
    await act(async () => {
      emit().connection(true);
      emit().session({ playerId: 'ben', token: 't' });
    });
    expect(client.resume).toHaveBeenCalledWith('ABCDE');
    expect(result.current.resuming).toBe(false);
    expect(result.current.connection).toBe('online');
    expect(result.current.playerId).toBe('ben');
    expect(result.current.snapshot).toBe(snap);
  });

  // The history audit: the join link opened in the tab that showed the landing; a Back restored that
  // landing from the back/forward cache, which knew of no room, under a player seated in one.
  it('a page restored from the back/forward cache goes to the room another page of the tab entered', async () => {
    const { client, factory, emit } = fakeClient({ ok: true, data: snap });
    const { result } = renderHook(() => useRoom(factory));
    await act(async () => {
      emit().connection(true);
      emit().session({ playerId: 'ben', token: 't' });
    });
    expect(result.current.snapshot).toBeNull();
    expect(client.resume).not.toHaveBeenCalled();
    // Meanwhile the tab's other page joined room ABCDE; this page is shown again (Back).
    localStorage.setItem('chipless.roomCode', 'ABCDE');
    const pageshow = (persisted: boolean) => Object.assign(new Event('pageshow'), { persisted });
    await act(async () => {
      window.dispatchEvent(pageshow(false));
    });
    expect(client.resume).not.toHaveBeenCalled();
    await act(async () => {
      window.dispatchEvent(pageshow(true));
    });
    expect(client.resume).toHaveBeenCalledWith('ABCDE');
    expect(result.current.snapshot).toBe(snap);
    expect(result.current.resuming).toBe(false);
    // Shown again with the same room, or with none stored: nothing to do.
    await act(async () => {
      window.dispatchEvent(pageshow(true));
      localStorage.removeItem('chipless.roomCode');
      window.dispatchEvent(pageshow(true));
    });
    expect(client.resume).toHaveBeenCalledTimes(1);
    expect(result.current.snapshot).toBe(snap);
  });

  // The tabs audit: Dan had the app open on its landing in one tab and joined Ann's room from another.
  // The first tab went on offering Start a Game, and a room created there made Dan a player of two
  // rooms at once, the tabs then writing each its own room over the other's in storage.
  it("a tab on the landing goes to the room another tab of this browser entered (the 'storage' event)", async () => {
    const { client, factory, emit } = fakeClient({ ok: true, data: snap });
    const { result } = renderHook(() => useRoom(factory));
    await act(async () => {
      emit().connection(true);
      emit().session({ playerId: 'ben', token: 't' });
    });
    expect(result.current.snapshot).toBeNull();
    const stored = (key: string, value: string | null) => {
      if (value === null) localStorage.removeItem(key);
      else localStorage.setItem(key, value);
      window.dispatchEvent(new StorageEvent('storage', { key, newValue: value }));
    };
    // Another key, or the room forgotten: nothing to go to.
    await act(async () => {
      stored('chipless.lastResults', JSON.stringify({ code: 'XYZWV', at: Date.now() }));
      stored('chipless.roomCode', null);
    });
    expect(client.resume).not.toHaveBeenCalled();
    await act(async () => stored('chipless.roomCode', 'ABCDE'));
    expect(client.resume).toHaveBeenCalledWith('ABCDE');
    expect(result.current.snapshot).toBe(snap);
    // A tab that shows a room stays in it: the other tab's room is the other tab's.
    await act(async () => stored('chipless.roomCode', 'QWERT'));
    expect(client.resume).toHaveBeenCalledTimes(1);
    expect(result.current.snapshot).toBe(snap);
  });

  // The session-39 review: following another tab's room is this tab's guess, not its seat. A follow
  // the server refuses (the other tab opening Last Game's Results of a game this player left, still
  // on) said "You were removed from the game." here, restarted that offer's clock, and cleared the
  // other tab's room from storage.
  it.each([
    ['a game this player left, still on', GAME_STILL_GOING],
    ['a room that is gone', 'Room not found'],
  ])(
    "a followed room the server refuses (%s): this tab stays as it was, the other tab's as it was",
    async (_, error) => {
      const { client, factory, emit } = fakeClient({ ok: false, error });
      const { result } = renderHook(() => useRoom(factory));
      await act(async () => {
        emit().connection(true);
        emit().session({ playerId: 'ben', token: 't' });
      });
      const offer = JSON.stringify({ code: 'XYZWV', at: 1_000 });
      localStorage.setItem('chipless.lastResults', offer);
      await act(async () => {
        localStorage.setItem('chipless.roomCode', 'ABCDE');
        window.dispatchEvent(new StorageEvent('storage', { key: 'chipless.roomCode', newValue: 'ABCDE' }));
      });
      expect(client.resume).toHaveBeenCalledWith('ABCDE');
      expect(result.current.snapshot).toBeNull();
      expect(result.current.resuming).toBe(false);
      expect(result.current.notice).toBeNull();
      expect(localStorage.getItem('chipless.roomCode')).toBe('ABCDE');
      expect(localStorage.getItem('chipless.lastResults')).toBe(offer);
    },
  );

  // The server says 'gone' before it refuses a resume of a room it no longer has (not_found) or one
  // the player is not in (removed): the follow was then still dropped with "Your previous game is no
  // longer available." or "You were removed from the game.", and the other tab's room cleared from
  // storage (the session-39 second review; the test above answers the refusal alone).
  it.each([
    ['not_found', 'Room not found'],
    ['removed', 'You are not in this room'],
  ] as const)(
    "a followed room the server says 'gone' (%s) before refusing: dropped as quietly",
    async (reason, error) => {
      const { client, factory, emit } = fakeClient();
      client.resume.mockImplementation(async (): Promise<Ack<RoomSnapshot>> => {
        emit().gone({ roomCode: 'ABCDE', reason });
        return { ok: false, error };
      });
      // This player left ABCDE during the game: its results are offered once it ends.
      localStorage.setItem(
        'chipless.lastResults',
        JSON.stringify({ code: 'ABCDE', at: Date.now(), departed: true }),
      );
      const { result } = renderHook(() => useRoom(factory));
      await act(async () => {
        emit().connection(true);
        emit().session({ playerId: 'ben', token: 't' });
      });
      await act(async () => {
        localStorage.setItem('chipless.roomCode', 'ABCDE');
        window.dispatchEvent(new StorageEvent('storage', { key: 'chipless.roomCode', newValue: 'ABCDE' }));
      });
      expect(client.resume).toHaveBeenCalledWith('ABCDE');
      expect(result.current.resuming).toBe(false);
      expect(result.current.notice).toBeNull();
      expect(localStorage.getItem('chipless.roomCode')).toBe('ABCDE');
      expect(result.current.lastResults).toBe('ABCDE');
      // The follow is over: this tab's own request for the room, refused, is said as ever.
      client.resume.mockResolvedValue({ ok: false, error: GAME_STILL_GOING });
      await act(async () => result.current.openLastResults());
      expect(result.current.notice).toBe(GAME_STILL_GOING);
    },
  );

  it('goes home with a notice when the remembered room cannot be resumed', async () => {
    localStorage.setItem('chipless.roomCode', 'ABCDE');
    const { factory, emit } = fakeClient({ ok: false, error: 'Room not found' });
    const { result } = renderHook(() => useRoom(factory));
    await act(async () => emit().session({ playerId: 'ben', token: 't' }));
    expect(result.current.resuming).toBe(false);
    expect(result.current.snapshot).toBeNull();
    expect(result.current.notice).toBe('Your previous game is no longer available.');
    expect(localStorage.getItem('chipless.roomCode')).toBeNull();
  });

  // A timeout, and the server failing to carry it out (regression, session 21: that forgot the seat).
  it.each([
    ['times out', NO_CONNECTION_ERROR],
    ['is answered "Something went wrong"', SOMETHING_WENT_WRONG],
    ['is answered "Too many requests"', TOO_MANY_REQUESTS],
  ])(
    'keeps the seat when a resume %s, and asks again while the connection stays up (regression)',
    async (_, error) => {
      vi.useFakeTimers();
      try {
        localStorage.setItem('chipless.roomCode', 'ABCDE');
        const { client, factory, emit } = fakeClient({ ok: false, error });
        const { result, unmount } = renderHook(() => useRoom(factory));
        await act(async () => emit().session({ playerId: 'ben', token: 't' }));
        // Not "your game is gone": the seat is still there.
        expect(result.current.notice).toBeNull();
        expect(result.current.resuming).toBe(true);
        expect(localStorage.getItem('chipless.roomCode')).toBe('ABCDE');
        expect(client.resume).toHaveBeenCalledTimes(1);
        // Before: nothing more happened until the next connection, and the phone sat on a spinner.
        client.resume.mockResolvedValueOnce({ ok: true, data: snap });
        await act(async () => vi.advanceTimersByTimeAsync(RESUME_RETRY_MS));
        expect(client.resume).toHaveBeenCalledTimes(2);
        expect(result.current.resuming).toBe(false);
        expect(result.current.snapshot).toBe(snap);
        await act(async () => vi.advanceTimersByTimeAsync(RESUME_RETRY_MS * 3));
        expect(client.resume).toHaveBeenCalledTimes(2);
        unmount();
      } finally {
        vi.useRealTimers();
      }
    },
  );

  it('stops asking once the hook is gone', async () => {
    vi.useFakeTimers();
    try {
      localStorage.setItem('chipless.roomCode', 'ABCDE');
      const { client, factory, emit } = fakeClient({ ok: false, error: NO_CONNECTION_ERROR });
      const { unmount } = renderHook(() => useRoom(factory));
      await act(async () => emit().session({ playerId: 'ben', token: 't' }));
      unmount();
      await vi.advanceTimersByTimeAsync(RESUME_RETRY_MS * 3);
      expect(client.resume).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('remembers a created room, applies newer snapshots only, and shows "offline" while disconnected', async () => {
    const { factory, emit } = fakeClient();
    const { result } = renderHook(() => useRoom(factory));
    await act(async () => {
      await result.current.createRoom('Ana', 5_000);
    });
    expect(localStorage.getItem('chipless.roomCode')).toBe('ABCDE');
    // Broadcasts do not write the remembered code again (a write is ~1 ms on a slow phone)...
    const kept = new Map([['chipless.roomCode', 'ABCDE']]);
    const writes: string[][] = [];
    vi.stubGlobal('localStorage', {
      getItem: (k: string) => kept.get(k) ?? null,
      setItem: (k: string, v: string) => {
        writes.push([k, v]);
        kept.set(k, v);
      },
      removeItem: (k: string) => kept.delete(k),
    });
    const newer = { ...snap, version: 5 };
    act(() => emit().room(newer));
    expect(result.current.snapshot).toBe(newer);
    expect(writes).toEqual([]);
    // ...unless another tab cleared it meanwhile.
    kept.delete('chipless.roomCode');
    act(() => emit().room({ ...snap, version: 6 }));
    expect(writes).toEqual([['chipless.roomCode', 'ABCDE']]);
    vi.unstubAllGlobals();
    const newest = { ...snap, version: 6 };
    act(() => emit().room({ ...snap, version: 4 }));
    expect(result.current.snapshot).toEqual(newest);
    act(() => emit().room({ ...snap, version: 9, room: { ...room, roomCode: 'ZZZZZ' } }));
    expect(result.current.snapshot).toEqual(newest);
    act(() => emit().connection(false));
    expect(result.current.connection).toBe('offline');
  });

  it('folds broadcasts (new log events only) into the whole log, and asks again for the room when events are missing', async () => {
    const [v1, v2, v3, v4, v5] = handRooms() as [Room, Room, Room, Room, Room];
    const full = (r: Room, version: number) => whole(r, version);
    const { client, emit, result } = await createdAt(full(v1, 1), full(v4, 4));
    // createRoom answered with the lobby (version 1); broadcasts of versions 2 and 3 follow.
    act(() => emit().room(logDelta(full(v2, 2), v1.nextEventSeq)));
    expect(result.current.snapshot).toEqual(full(v2, 2));
    act(() => emit().room(logDelta(full(v3, 3), v2.nextEventSeq)));
    expect(result.current.snapshot).toEqual(full(v3, 3));
    expect(client.resume).not.toHaveBeenCalled();
    // Version 4's broadcast is lost: version 5's log starts past the log held. The phone waits a moment
    // for it (broadcasts may cross), then asks for the room.
    vi.useFakeTimers();
    try {
      await act(async () => emit().room(logDelta(full(v5, 5), v4.nextEventSeq)));
      await act(async () => vi.advanceTimersByTimeAsync(LOG_GAP_WAIT_MS - 1));
      expect(client.resume).not.toHaveBeenCalled();
      await act(async () => vi.advanceTimersByTimeAsync(1));
    } finally {
      vi.useRealTimers();
    }
    expect(client.resume).toHaveBeenCalledTimes(1);
    expect(client.resume).toHaveBeenCalledWith('ABCDE');
    // The resume's full snapshot (version 4) mends the log; the state stays at version 5.
    expect(result.current.snapshot).toEqual(full(v5, 5));
  });

  it('two broadcasts crossing (Redis mode): the late one fills the hole, and nothing is asked again (regression, session 36 race audit)', async () => {
    const [, v2, v3, v4] = handRooms() as [Room, Room, Room, Room];
    const full = (r: Room, version: number) => whole(r, version);
    const { client, emit, result } = await createdAt(full(v2, 2), full(v4, 4));
    vi.useFakeTimers();
    try {
      // Version 4's broadcast comes before version 3's.
      await act(async () => emit().room(logDelta(full(v4, 4), v3.nextEventSeq)));
      await act(async () => vi.advanceTimersByTimeAsync(10));
      await act(async () => emit().room(logDelta(full(v3, 3), v2.nextEventSeq)));
      await act(async () => vi.advanceTimersByTimeAsync(LOG_GAP_WAIT_MS * 2));
    } finally {
      vi.useRealTimers();
    }
    expect(client.resume).not.toHaveBeenCalled();
    expect(result.current.snapshot).toEqual(full(v4, 4));
  });

  it("a hole waited for in a room gone from (removed) is not the next room's: that one's hole is asked for (review of session 37)", async () => {
    const [, v2, v3, v4] = handRooms() as [Room, Room, Room, Room];
    const full = whole;
    const { client, emit, result } = await createdAt(full(v2, 2), full(v4, 4, 'OTHER'));
    client.joinRoom.mockResolvedValueOnce({ ok: true, data: full(v2, 2, 'OTHER') });
    vi.useFakeTimers();
    try {
      await act(async () => emit().room(logDelta(full(v4, 4), v3.nextEventSeq)));
      await act(async () => emit().gone({ roomCode: 'ABCDE', reason: 'removed' }));
      await act(async () => {
        await result.current.joinRoom('OTHER', 'Ana', 5_000);
      });
      await act(async () => emit().room(logDelta(full(v4, 4, 'OTHER'), v3.nextEventSeq)));
      await act(async () => vi.advanceTimersByTimeAsync(LOG_GAP_WAIT_MS));
    } finally {
      vi.useRealTimers();
    }
    expect(client.resume.mock.calls).toEqual([['OTHER']]);
  });

  it('a second hole while the first is waited for: the first filled, the second not, the room is asked for', async () => {
    const [, v2, v3, v4, v5, v6] = handRooms() as [Room, Room, Room, Room, Room, Room];
    const full = (r: Room, version: number) => whole(r, version);
    const { client, emit, result } = await createdAt(full(v2, 2), full(v6, 6));
    vi.useFakeTimers();
    try {
      await act(async () => emit().room(logDelta(full(v4, 4), v3.nextEventSeq)));
      await act(async () => emit().room(logDelta(full(v6, 6), v5.nextEventSeq)));
      await act(async () => emit().room(logDelta(full(v3, 3), v2.nextEventSeq)));
      await act(async () => vi.advanceTimersByTimeAsync(LOG_GAP_WAIT_MS));
    } finally {
      vi.useRealTimers();
    }
    expect(client.resume).toHaveBeenCalledTimes(1);
    expect(result.current.snapshot).toEqual(full(v6, 6));
  });

  it('goes home with a notice when the room is gone', async () => {
    const { factory, emit } = fakeClient();
    const { result } = renderHook(() => useRoom(factory));
    await act(async () => {
      await result.current.joinRoom('ABCDE', 'Ben', 5_000);
    });
    act(() => emit().gone({ roomCode: 'ABCDE', reason: 'removed' }));
    expect(result.current.snapshot).toBeNull();
    expect(result.current.notice).toBe('You were removed from the game.');
  });

  it('goes home without a notice when the player left from another tab', async () => {
    const { factory, emit } = fakeClient();
    const { result } = renderHook(() => useRoom(factory));
    await act(async () => {
      await result.current.joinRoom('ABCDE', 'Ben', 5_000);
    });
    act(() => emit().gone({ roomCode: 'ABCDE', reason: 'left' }));
    expect(result.current.snapshot).toBeNull();
    expect(result.current.notice).toBeNull();
  });

  it("the room deleted: 'The host ended the game session.', except on the host's own other tab", async () => {
    for (const [me, notice] of [
      [room.hostId, null],
      ['ben', 'The host ended the game session.'],
    ] as const) {
      const { factory, emit } = fakeClient();
      const { result, unmount } = renderHook(() => useRoom(factory));
      await act(async () => {
        emit().session({ playerId: me, token: 't' });
        await result.current.joinRoom('ABCDE', 'Ben', 5_000);
      });
      act(() => emit().gone({ roomCode: 'ABCDE', reason: 'deleted' }));
      expect(result.current.snapshot).toBeNull();
      expect(result.current.notice).toBe(notice);
      unmount();
    }
  });

  it('sends commands for the current room, and leaving forgets it', async () => {
    const { client, factory, emit } = fakeClient();
    const { result } = renderHook(() => useRoom(factory));
    act(() => emit().connection(true));
    await act(async () => {
      await result.current.joinRoom('ABCDE', 'Ben', 5_000);
    });
    await act(async () => {
      await result.current.send({ type: 'act', action: 'FOLD' });
    });
    expect(client.command).toHaveBeenLastCalledWith('ABCDE', { type: 'act', action: 'FOLD' });
    await act(async () => {
      await result.current.leave();
    });
    expect(client.command).toHaveBeenLastCalledWith('ABCDE', { type: 'leave' });
    expect(result.current.snapshot).toBeNull();
    expect(result.current.notice).toBeNull();
    expect(localStorage.getItem('chipless.roomCode')).toBeNull();
  });

  it('back home from a game that is over: home at once, and the server told this phone stopped watching', async () => {
    const { client, factory, emit } = fakeClient();
    // The leave's answer never comes (offline): home all the same.
    client.command.mockReturnValueOnce(new Promise<Ack<{ version: number }>>(() => {}));
    const { result } = renderHook(() => useRoom(factory));
    await act(async () => {
      await result.current.joinRoom('ABCDE', 'Ben', 5_000);
    });
    act(() => result.current.goHome());
    expect(client.command).toHaveBeenLastCalledWith('ABCDE', { type: 'leave' });
    expect(result.current.snapshot).toBeNull();
    expect(result.current.notice).toBeNull();
    expect(localStorage.getItem('chipless.roomCode')).toBeNull();
    // A late broadcast of the old room does not bring it back.
    act(() => emit().room(snap));
    expect(result.current.snapshot).toBeNull();
  });

  // The tabs audit: Ben's old tab still showed last game's results while his new tab had joined
  // tonight's room; "Back to Home" in the old tab removed tonight's room from storage, and the new tab
  // came back to the landing on its next reload.
  it('going home, or told the room is gone, forgets only the room this tab had in storage', async () => {
    const { factory, emit } = fakeClient();
    const { result } = renderHook(() => useRoom(factory));
    await act(async () => {
      await result.current.joinRoom('ABCDE', 'Ben', 5_000);
    });
    // Another tab of this browser enters QWERT meanwhile.
    localStorage.setItem('chipless.roomCode', 'QWERT');
    act(() => result.current.goHome());
    expect(result.current.snapshot).toBeNull();
    expect(localStorage.getItem('chipless.roomCode')).toBe('QWERT');
    await act(async () => {
      await result.current.joinRoom('ABCDE', 'Ben', 5_000);
    });
    expect(localStorage.getItem('chipless.roomCode')).toBe('ABCDE');
    localStorage.setItem('chipless.roomCode', 'QWERT');
    act(() => emit().gone({ roomCode: 'ABCDE', reason: 'expired' }));
    expect(result.current.snapshot).toBeNull();
    expect(localStorage.getItem('chipless.roomCode')).toBe('QWERT');
    // Its own room is forgotten as before.
    await act(async () => {
      await result.current.joinRoom('ABCDE', 'Ben', 5_000);
    });
    await act(async () => {
      await result.current.leave();
    });
    expect(localStorage.getItem('chipless.roomCode')).toBeNull();
  });

  describe('a finished game\'s results after "Back to Home"', () => {
    const playing = snapshot(
      step(step(room, 'ana', { type: 'approve', playerId: 'ben' }), 'ana', { type: 'startGame' }),
    );
    const over = snapshot(step(playing.room, 'ana', { type: 'endGame' }));

    /** Ben at the game-over screen of room ABCDE, online, resumes answered with `resume`. */
    async function atGameOver(resume: Ack<RoomSnapshot>) {
      localStorage.setItem('chipless.roomCode', 'ABCDE');
      const fake = fakeClient({ ok: true, data: over });
      const hook = renderHook(() => useRoom(fake.factory));
      await act(async () => {
        fake.emit().connection(true);
        fake.emit().session({ playerId: 'ben', token: 't' });
      });
      expect(hook.result.current.snapshot?.room.status).toBe('ENDED');
      fake.client.resume.mockImplementation(async () => resume);
      return { ...fake, ...hook };
    }

    it('are offered again on the home screen, and opened as a reload would (the ended room resumed)', async () => {
      const { result, client } = await atGameOver({ ok: true, data: over });
      expect(result.current.lastResults).toBeNull();
      act(() => result.current.goHome());
      expect(result.current.snapshot).toBeNull();
      expect(result.current.lastResults).toBe('ABCDE');
      expect(JSON.parse(localStorage.getItem('chipless.lastResults')!).code).toBe('ABCDE');
      client.resume.mockClear();
      await act(async () => result.current.openLastResults());
      expect(client.resume).toHaveBeenCalledWith('ABCDE');
      expect(result.current.snapshot).toBe(over);
      expect(localStorage.getItem('chipless.roomCode')).toBe('ABCDE');
    });

    // The tabs audit: Ben's old tab still showed last game's results while his new tab had joined
    // tonight's room; a broadcast of the finished room (a player going home changes who is online)
    // wrote it over tonight's in storage, and the new tab's reload opened last game's results.
    it('a broadcast of the finished game does not write it over the room another tab entered since', async () => {
      const { emit } = await atGameOver({ ok: true, data: over });
      localStorage.setItem('chipless.roomCode', 'QWERT');
      act(() => emit().room({ ...over, version: over.version + 1 }));
      expect(localStorage.getItem('chipless.roomCode')).toBe('QWERT');
    });

    // Ben's two tabs both show the game over. "Back to Home" in one forgets the room; a broadcast of
    // the finished room to the other (a friend going home changes who is online) wrote its code back
    // into the emptied key, and the first tab, on the landing, followed it ('storage') back to the
    // results: "Back to Home" did not stick, once for every friend who went home.
    it('"Back to Home" in one tab sticks while another tab still shows the game over', async () => {
      const home = await atGameOver({ ok: true, data: over });
      const other = await atGameOver({ ok: true, data: over });
      act(() => home.result.current.goHome());
      expect(localStorage.getItem('chipless.roomCode')).toBeNull();
      home.client.resume.mockClear();
      act(() => other.emit().room({ ...over, version: over.version + 1 }));
      // The browser tells the other tabs of a change to the key, as it does.
      const value = localStorage.getItem('chipless.roomCode');
      if (value !== null)
        await act(async () => {
          window.dispatchEvent(new StorageEvent('storage', { key: 'chipless.roomCode', newValue: value }));
        });
      expect(home.client.resume).not.toHaveBeenCalled();
      expect(home.result.current.snapshot).toBeNull();
      expect(other.result.current.snapshot?.room.status).toBe('ENDED');
    });

    it('a room the server no longer keeps says so, and is offered no more', async () => {
      const { result } = await atGameOver({ ok: false, error: 'Room not found' });
      act(() => result.current.goHome());
      await act(async () => result.current.openLastResults());
      expect(result.current.snapshot).toBeNull();
      expect(result.current.notice).toBe('Your previous game is no longer available.');
      expect(result.current.lastResults).toBeNull();
      expect(localStorage.getItem('chipless.lastResults')).toBeNull();
    });

    it("a room the server no longer has, told by its 'not_found' notice before the resume's answer, is offered no more", async () => {
      const fake = await atGameOver({ ok: false, error: 'Room not found' });
      const { result, client, emit } = fake;
      act(() => result.current.goHome());
      // As the server does: the notice first, the answer after it.
      client.resume.mockImplementation(async () => {
        emit().gone({ roomCode: 'ABCDE', reason: 'not_found' });
        return { ok: false, error: 'Room not found' };
      });
      await act(async () => result.current.openLastResults());
      expect(result.current.notice).toBe('Your previous game is no longer available.');
      expect(result.current.lastResults).toBeNull();
      expect(localStorage.getItem('chipless.lastResults')).toBeNull();
    });

    it('tapped after the offer ran out while the home screen stayed open: says so, not a button that just goes (clock audit, session 37)', async () => {
      const { result, client } = await atGameOver({ ok: true, data: over });
      act(() => result.current.goHome());
      expect(result.current.lastResults).toBe('ABCDE');
      const asked = client.resume.mock.calls.length;
      const stored = JSON.parse(localStorage.getItem('chipless.lastResults')!);
      localStorage.setItem(
        'chipless.lastResults',
        JSON.stringify({ ...stored, at: stored.at - LAST_RESULTS_MS }),
      );
      await act(async () => result.current.openLastResults());
      expect(result.current.lastResults).toBeNull();
      expect(result.current.notice).toBe('Your previous game is no longer available.');
      expect(client.resume).toHaveBeenCalledTimes(asked);
      expect(localStorage.getItem('chipless.lastResults')).toBeNull();
    });

    it('tapped while offline: says there is no connection and stays home, the offer kept', async () => {
      const { result, client, emit } = await atGameOver({ ok: true, data: over });
      act(() => result.current.goHome());
      act(() => emit().connection(false));
      client.resume.mockClear();
      act(() => result.current.openLastResults());
      expect(result.current.notice).toBe('No connection right now. Please try again in a moment.');
      expect(result.current.resuming).toBe(false);
      expect(result.current.snapshot).toBeNull();
      expect(client.resume).not.toHaveBeenCalled();
      expect(result.current.lastResults).toBe('ABCDE');
    });

    it('a game left before it was over is not offered, and an offer older than 12 hours goes', async () => {
      const { factory } = fakeClient();
      const { result } = renderHook(() => useRoom(factory));
      await act(async () => {
        await result.current.joinRoom('ABCDE', 'Ben', 5_000);
      });
      act(() => result.current.goHome());
      expect(result.current.lastResults).toBeNull();
      cleanup();
      localStorage.setItem(
        'chipless.lastResults',
        JSON.stringify({ code: 'OLDER', at: Date.now() - LAST_RESULTS_MS - 1 }),
      );
      expect(renderHook(() => useRoom(factory)).result.current.lastResults).toBeNull();
      localStorage.setItem(
        'chipless.lastResults',
        JSON.stringify({ code: 'NEWER', at: Date.now() - 60_000 }),
      );
      expect(renderHook(() => useRoom(factory)).result.current.lastResults).toBe('NEWER');
    });
  });

  describe('the results of a game this player left, or was removed from, while it was on', () => {
    const atTable = snapshot(lobby(['Ana', 'Ben', 'Cal', 'Dee'], { pending: ['Dee'] }));
    const playing = snapshot(step(atTable.room, 'ana', { type: 'startGame' }));
    const benLeft = step(playing.room, 'ben', { type: 'leave' });
    // Ben's results, as the server's resume gives them to him: he is in the ledger, not the room.
    const over = snapshot(step(benLeft, 'ana', { type: 'endGame' }));

    /** Ben (or `who`) at the table of room ABCDE, Ana hosting, Cal seated, Dee waiting for approval; online. */
    async function atTheTable(who = 'ben') {
      localStorage.setItem('chipless.roomCode', 'ABCDE');
      const fake = fakeClient({ ok: true, data: playing });
      const hook = renderHook(() => useRoom(fake.factory));
      await act(async () => {
        fake.emit().connection(true);
        fake.emit().session({ playerId: who, token: 't' });
      });
      expect(hook.result.current.snapshot?.room.status).toBe('PLAYING');
      return { ...fake, ...hook };
    }

    it('are offered once he leaves; before the end the server says the game is still going, the offer kept', async () => {
      const { result, client } = await atTheTable();
      await act(async () => {
        await result.current.leave();
      });
      expect(client.command).toHaveBeenLastCalledWith('ABCDE', { type: 'leave' });
      expect(result.current.snapshot).toBeNull();
      expect(result.current.lastResults).toBe('ABCDE');
      client.resume.mockResolvedValueOnce({ ok: false, error: GAME_STILL_GOING });
      await act(async () => result.current.openLastResults());
      expect(result.current.notice).toBe(GAME_STILL_GOING);
      expect([result.current.snapshot, result.current.resuming]).toEqual([null, false]);
      expect(localStorage.getItem('chipless.roomCode')).toBeNull();
      expect(result.current.lastResults).toBe('ABCDE');

      // The host ended it: the results, and back home from them sends nothing (he is not in the room).
      client.resume.mockResolvedValueOnce({ ok: true, data: over });
      await act(async () => result.current.openLastResults());
      expect(result.current.snapshot).toBe(over);
      expect(result.current.notice).toBeNull();
      client.command.mockClear();
      act(() => result.current.goHome());
      expect(client.command).not.toHaveBeenCalled();
      expect(result.current.lastResults).toBe('ABCDE');
    });

    it('are offered when the host removes him, or he left from another tab, or left offline', async () => {
      for (const reason of ['removed', 'left'] as const) {
        const { result, emit, unmount } = await atTheTable();
        act(() => emit().gone({ roomCode: 'ABCDE', reason }));
        expect(result.current.snapshot).toBeNull();
        expect(result.current.lastResults).toBe('ABCDE');
        unmount();
        localStorage.clear();
      }
      const { result, emit, client } = await atTheTable();
      act(() => emit().connection(false));
      await act(async () => {
        await result.current.leave();
      });
      expect(client.command).not.toHaveBeenCalled();
      expect(result.current.notice).toBe(notices.leftOffline);
      expect(result.current.lastResults).toBe('ABCDE');
    });

    it("a phone that slept through its removal is told 'You were removed from the game.' on its resume, and offered the results", async () => {
      localStorage.setItem('chipless.roomCode', 'ABCDE');
      const { factory, emit } = fakeClient({ ok: false, error: GAME_STILL_GOING });
      const { result } = renderHook(() => useRoom(factory));
      await act(async () => {
        emit().connection(true);
        emit().session({ playerId: 'ben', token: 't' });
      });
      expect(result.current.snapshot).toBeNull();
      expect(result.current.notice).toBe(notices.removed);
      expect(localStorage.getItem('chipless.roomCode')).toBeNull();
      expect(result.current.lastResults).toBe('ABCDE');
    });

    it('stay offered to a player who left, asked to join again and was denied', async () => {
      const { result, client, emit } = await atTheTable();
      await act(async () => {
        await result.current.leave();
      });
      expect(result.current.lastResults).toBe('ABCDE');
      // Back at the door: a join request (the engine seats him as waiting), and the host says no.
      const asking = snapshot(step(benLeft, 'ben', { type: 'join', name: 'Ben', startingChips: 5_000 }));
      client.joinRoom.mockResolvedValueOnce({ ok: true, data: asking });
      await act(async () => {
        await result.current.joinRoom('ABCDE', 'Ben', 5_000);
      });
      act(() => emit().gone({ roomCode: 'ABCDE', reason: 'removed' }));
      expect(result.current.notice).toBe(notices.removed);
      expect(result.current.lastResults).toBe('ABCDE');
    });

    it('are offered for 24 hours from leaving (the game goes on), a finished game for 12', () => {
      const { factory } = fakeClient();
      const offered = (last: object) => {
        localStorage.setItem('chipless.lastResults', JSON.stringify({ code: 'ABCDE', ...last }));
        const { result, unmount } = renderHook(() => useRoom(factory));
        const code = result.current.lastResults;
        unmount();
        return code;
      };
      const hours = (h: number) => Date.now() - h * 60 * 60 * 1000;
      expect(offered({ at: hours(13), departed: true })).toBe('ABCDE');
      expect(offered({ at: hours(24.1), departed: true })).toBeNull();
      expect(offered({ at: hours(13) })).toBeNull();
      expect(LEFT_GAME_RESULTS_MS).toBe(24 * 60 * 60 * 1000);
    });

    it('are not offered to a player the host denied while waiting (no results of theirs), nor after a refused leave', async () => {
      const dee = await atTheTable('dee');
      act(() => dee.emit().gone({ roomCode: 'ABCDE', reason: 'removed' }));
      expect(dee.result.current.lastResults).toBeNull();
      dee.unmount();
      localStorage.clear();
      const ben = await atTheTable();
      ben.client.command.mockResolvedValueOnce({ ok: false, error: 'Room not found' });
      await act(async () => {
        await ben.result.current.leave();
      });
      expect(ben.result.current.snapshot).toBeNull();
      expect(ben.result.current.lastResults).toBeNull();
    });
  });

  it('closes the client on unmount', () => {
    const { client, factory } = fakeClient();
    const { unmount } = renderHook(() => useRoom(factory));
    unmount();
    expect(client.close).toHaveBeenCalled();
  });
});

describe('useRoom: a seat link (moving a seat to this phone)', () => {
  it("claimed: the page leaves what it showed, and the connection's next session resumes the link's room as the seat's player", async () => {
    // This phone showed last game's results (room ZZZZZ, over) when the link was opened, and its player
    // owed a leave for room ABCDE (left offline a moment before).
    const over = whole({ ...room, status: 'ENDED' }, 9, 'ZZZZZ');
    const seated = whole(room, 4, 'ABCDE');
    const { client, factory, emit } = fakeClient({ ok: true, data: over });
    localStorage.setItem('chipless.roomCode', 'ZZZZZ');
    localStorage.setItem('chipless.lastResults', JSON.stringify({ code: 'YYYYY', at: Date.now() }));
    localStorage.setItem('chipless.owedLeave', 'ABCDE');
    // The owed leave's answer is lost on the way: still owed when the link is opened.
    client.command.mockResolvedValueOnce({ ok: false, error: NO_CONNECTION_ERROR });
    const { result } = renderHook(() => useRoom(factory));
    await act(async () => {
      emit().connection(true);
      emit().session({ playerId: 'dee', token: 'td' });
    });
    expect(result.current.snapshot).toBe(over);
    expect(result.current.lastResults).toBe('YYYYY');
    expect(client.command).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem('chipless.owedLeave')).toBe('ABCDE');
    client.claimSeat.mockResolvedValueOnce({
      ok: true,
      data: { roomCode: 'ABCDE', credentials: { playerId: 'ben', token: 'tb' } },
    });
    client.resume.mockResolvedValue({ ok: true, data: seated });
    let res: unknown;
    await act(async () => {
      res = await result.current.claimSeat('ABCDE.ben.1.sig');
    });
    expect(client.claimSeat).toHaveBeenCalledWith('ABCDE.ben.1.sig');
    expect(res).toEqual({
      ok: true,
      data: { roomCode: 'ABCDE', credentials: { playerId: 'ben', token: 'tb' } },
    });
    expect(result.current.snapshot).toBeNull();
    expect(result.current.resuming).toBe(true);
    expect(localStorage.getItem('chipless.roomCode')).toBe('ABCDE');
    // The client reconnects as Ben; its session resumes the link's room.
    await act(async () => {
      emit().session({ playerId: 'ben', token: 'tb' });
    });
    expect(client.resume).toHaveBeenLastCalledWith('ABCDE');
    // Dee's leave is not sent as Ben; Dee's last results stay hers, for when the phone is hers again:
    // the game-over screen it showed (ZZZZZ), the newer, as Back to Home from it would have kept.
    expect(client.command).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem('chipless.owedLeave')).toBeNull();
    expect(result.current.lastResults).toBe('ZZZZZ');
    expect(result.current.playerId).toBe('ben');
    expect(result.current.snapshot).toBe(seated);
    expect(result.current.resuming).toBe(false);
  });

  it("claimed from the game-over screen of the phone's own game: those results are offered once the phone is its own again", async () => {
    // Dee's phone sat on the results of the game she hosted (never Back to Home, so never offered on
    // the home screen) when Bob borrowed it: given back, her own results were gone for good.
    const over = whole({ ...room, status: 'ENDED' }, 9, 'ZZZZZ');
    const { client, factory, emit } = fakeClient({ ok: true, data: over });
    localStorage.setItem('chipless.roomCode', 'ZZZZZ');
    const { result } = renderHook(() => useRoom(factory));
    await act(async () => {
      emit().connection(true);
      emit().session({ playerId: 'dee', token: 'td' });
    });
    expect(result.current.snapshot).toBe(over);
    client.claimSeat.mockResolvedValueOnce({
      ok: true,
      data: { roomCode: 'ABCDE', credentials: { playerId: 'ben', token: 'tb', room: 'ABCDE' } },
    });
    client.resume.mockResolvedValue({ ok: true, data: whole(room, 4, 'ABCDE') });
    await act(async () => {
      await result.current.claimSeat('ABCDE.ben.L1.1.sig');
    });
    client.seatRoom.mockReturnValue('ABCDE');
    await act(async () => {
      emit().session({ playerId: 'ben', token: 'tb', room: 'ABCDE' });
    });
    await act(async () => {
      result.current.handBack();
    });
    expect(client.goBackToOwn).toHaveBeenCalledTimes(1);
    expect(result.current.lastResults).toBe('ZZZZZ');
    expect(JSON.parse(localStorage.getItem('chipless.lastResults')!).code).toBe('ZZZZZ');
  });

  it("refused: nothing changes here, and the answer is the caller's to show", async () => {
    const { client, factory, emit } = fakeClient();
    const { result } = renderHook(() => useRoom(factory));
    await act(async () => {
      emit().connection(true);
      emit().session({ playerId: 'dee', token: 'td' });
    });
    client.claimSeat.mockResolvedValueOnce({
      ok: false,
      error: 'This link has expired. Ask the host for a new one.',
    });
    let res: unknown;
    await act(async () => {
      res = await result.current.claimSeat('ABCDE.ben.1.sig');
    });
    expect(res).toEqual({ ok: false, error: 'This link has expired. Ask the host for a new one.' });
    expect(result.current.resuming).toBe(false);
    expect(result.current.notice).toBeNull();
    expect(localStorage.getItem('chipless.roomCode')).toBeNull();
  });

  it("done with the seat's room (Back to Home from its results): the phone is its own player again, and those results are not offered", async () => {
    const over = whole({ ...room, status: 'ENDED' }, 9, 'ABCDE');
    const { client, factory, emit } = fakeClient({ ok: true, data: over });
    localStorage.setItem('chipless.roomCode', 'ABCDE');
    client.seatRoom.mockReturnValue('ABCDE');
    const { result } = renderHook(() => useRoom(factory));
    await act(async () => {
      emit().connection(true);
      emit().session({ playerId: 'ben', token: 'tb', room: 'ABCDE' });
    });
    expect(result.current.snapshot).toBe(over);
    await act(async () => {
      result.current.goHome();
    });
    expect(client.goBackToOwn).toHaveBeenCalledTimes(1);
    expect(result.current.lastResults).toBeNull();
    expect(localStorage.getItem('chipless.lastResults')).toBeNull();
  });

  it("a seat held by an earlier link, moved on to another phone since: the phone is its own player again, told so in the server's words", async () => {
    const { client, factory, emit } = fakeClient({ ok: false, error: MSG.seatHeldElsewhere });
    localStorage.setItem('chipless.roomCode', 'ABCDE');
    client.seatRoom.mockReturnValue('ABCDE');
    const { result } = renderHook(() => useRoom(factory));
    await act(async () => {
      emit().connection(true);
      emit().session({ playerId: 'ben', token: 'tb', room: 'ABCDE' });
    });
    expect(result.current.snapshot).toBeNull();
    expect(result.current.resuming).toBe(false);
    expect(localStorage.getItem('chipless.roomCode')).toBeNull();
    expect(client.goBackToOwn).toHaveBeenCalledTimes(1);
    expect(result.current.notice).toBe(MSG.seatHeldElsewhere);
  });

  it('Give This Phone Back: home at once, nothing sent (the seat stays at the table), the phone its own player again', async () => {
    const { client, factory, emit } = fakeClient({ ok: true, data: whole(room, 3, 'ABCDE') });
    localStorage.setItem('chipless.roomCode', 'ABCDE');
    client.seatRoom.mockReturnValue('ABCDE');
    const { result } = renderHook(() => useRoom(factory));
    await act(async () => {
      emit().connection(true);
      emit().session({ playerId: 'ben', token: 'tb', room: 'ABCDE' });
    });
    expect(result.current.seatRoom).toBe('ABCDE');
    await act(async () => {
      result.current.handBack();
    });
    expect(result.current.snapshot).toBeNull();
    expect(localStorage.getItem('chipless.roomCode')).toBeNull();
    expect(client.command).not.toHaveBeenCalled();
    expect(client.goBackToOwn).toHaveBeenCalledTimes(1);
  });

  it("Leave with no connection, on a seat held by link: the leave goes as the seat's player once back online, and only then the phone is its own again", async () => {
    const playing = whole(handRooms()[1]!, 5, 'ABCDE');
    const ben = Object.keys(playing.room.players)[1]!;
    const { client, factory, emit } = fakeClient({ ok: true, data: playing });
    localStorage.setItem('chipless.roomCode', 'ABCDE');
    client.seatRoom.mockReturnValue('ABCDE');
    const { result } = renderHook(() => useRoom(factory));
    await act(async () => {
      emit().connection(true);
      emit().session({ playerId: ben, token: 'tb', room: 'ABCDE' });
    });
    expect(result.current.snapshot).toBe(playing);
    await act(async () => {
      emit().connection(false);
    });
    await act(async () => {
      await result.current.leave();
    });
    expect(result.current.snapshot).toBeNull();
    expect(localStorage.getItem('chipless.owedLeave')).toBe('ABCDE');
    // Gone back to its own player now, the leave would be sent as that player: not in Bob's game, so
    // Bob would stay at the table.
    expect(client.goBackToOwn).not.toHaveBeenCalled();
    // Back online (the page's identity is still the seat's): the leave goes, then the phone is its own.
    await act(async () => {
      emit().connection(true);
      emit().session({ playerId: ben, token: 'tb', room: 'ABCDE' });
    });
    expect(client.command).toHaveBeenCalledWith('ABCDE', { type: 'leave' });
    expect(localStorage.getItem('chipless.owedLeave')).toBeNull();
    expect(client.goBackToOwn).toHaveBeenCalledTimes(1);
    // The seat's results are not offered to the phone's own player.
    expect(result.current.lastResults).toBeNull();
  });

  it("a room that is not the seat's, dropped: the phone stays the seat's player", async () => {
    const { client, factory, emit } = fakeClient({ ok: true, data: whole(room, 3, 'ZZZZZ') });
    localStorage.setItem('chipless.roomCode', 'ZZZZZ');
    client.seatRoom.mockReturnValue('ABCDE');
    const { result } = renderHook(() => useRoom(factory));
    await act(async () => {
      emit().connection(true);
      emit().session({ playerId: 'dee', token: 'td' });
    });
    await act(async () => {
      emit().gone({ roomCode: 'ZZZZZ', reason: 'expired' });
    });
    expect(result.current.snapshot).toBeNull();
    expect(client.goBackToOwn).not.toHaveBeenCalled();
  });

  it("the host's link for a player: asked for the current room", async () => {
    const { client, result } = await createdAt(snap, snap);
    client.seatLink.mockResolvedValueOnce({ ok: true, data: { seat: 's', expiresInMs: 900_000 } });
    let res: unknown;
    await act(async () => {
      res = await result.current.seatLink('ben');
    });
    expect(client.seatLink).toHaveBeenCalledWith(snap.room.roomCode, 'ben');
    expect(res).toEqual({ ok: true, data: { seat: 's', expiresInMs: 900_000 } });
  });
});

describe('useRoom: leaving, rejoining and a server hiccup on resume', () => {
  it('after leaving a room and joining it again, the room being closed still sends the player home', async () => {
    const { factory, emit } = fakeClient({ ok: true, data: snap });
    const { result } = renderHook(() => useRoom(factory));
    act(() => emit().connection(true));
    await act(async () => {
      await result.current.joinRoom('ABCDE', 'Ben', 5_000);
    });
    await act(async () => {
      await result.current.leave();
    });
    expect(result.current.snapshot).toBeNull();
    // A mis-tap on the lobby's leave button: the player joins the same room again.
    await act(async () => {
      await result.current.joinRoom('ABCDE', 'Ben', 5_000);
    });
    expect(result.current.snapshot).not.toBeNull();
    // The host ends the session: this phone must go home, not sit on a dead lobby.
    act(() => emit().gone({ roomCode: 'ABCDE', reason: 'deleted' }));
    expect(result.current.snapshot).toBeNull();
    expect(result.current.notice).toBe('The host ended the game session.');
  });
});

describe('useRoom: leaving without a connection (the spec: a failed leave never blocks the user)', () => {
  const LEFT_OFFLINE =
    'You left the game. Your phone is offline, so the table will see you go once it is back online.';

  /** A phone online, seated in room ABCDE as Ben. */
  async function seated() {
    const fake = fakeClient();
    const hook = renderHook(() => useRoom(fake.factory));
    act(() => fake.emit().connection(true));
    await act(async () => {
      await hook.result.current.joinRoom('ABCDE', 'Ben', 5_000);
    });
    return { ...fake, ...hook };
  }

  it('the connection drops on the way: home with a notice, and the leave is sent once the phone is back', async () => {
    const { client, emit, result } = await seated();
    client.command.mockResolvedValueOnce({ ok: false, error: NO_CONNECTION_ERROR });
    let answer: unknown;
    await act(async () => {
      answer = await result.current.leave();
    });
    expect(answer).toEqual({ ok: true, data: null });
    expect(result.current.snapshot).toBeNull();
    expect(localStorage.getItem('chipless.roomCode')).toBeNull();
    expect(result.current.notice).toBe(LEFT_OFFLINE);
    expect(client.command).toHaveBeenCalledTimes(1);
    // Back online, still no answer the first time: asked again on the next connection, then never again.
    client.command.mockResolvedValueOnce({ ok: false, error: NO_CONNECTION_ERROR });
    await act(async () => {
      emit().connection(true);
      emit().session({ playerId: 'ben', token: 't' });
    });
    expect(client.command).toHaveBeenCalledTimes(2);
    expect(client.command).toHaveBeenLastCalledWith('ABCDE', { type: 'leave' });
    await act(async () => emit().session({ playerId: 'ben', token: 't' }));
    expect(client.command).toHaveBeenCalledTimes(3);
    expect(client.command).toHaveBeenLastCalledWith('ABCDE', { type: 'leave' });
    await act(async () => emit().session({ playerId: 'ben', token: 't' }));
    expect(client.command).toHaveBeenCalledTimes(3);
    expect(client.resume).not.toHaveBeenCalled();
  });

  it('while "Reconnecting…": home at once, nothing sent until the phone is back', async () => {
    const { client, emit, result } = await seated();
    act(() => emit().connection(false));
    await act(async () => {
      await result.current.leave();
    });
    expect(client.command).not.toHaveBeenCalled();
    expect(result.current.snapshot).toBeNull();
    expect(result.current.notice).toBe(LEFT_OFFLINE);
    await act(async () => {
      emit().connection(true);
      emit().session({ playerId: 'ben', token: 't' });
    });
    expect(client.command.mock.calls).toEqual([['ABCDE', { type: 'leave' }]]);
  });

  it('a reload before the phone is back online still sends the leave, once', async () => {
    const first = await seated();
    const { result, unmount } = first;
    act(() => first.emit().connection(false));
    await act(async () => {
      await result.current.leave();
    });
    unmount();
    const second = fakeClient();
    renderHook(() => useRoom(second.factory));
    await act(async () => {
      second.emit().connection(true);
      second.emit().session({ playerId: 'ben', token: 't' });
    });
    expect(second.client.command.mock.calls).toEqual([['ABCDE', { type: 'leave' }]]);
    expect(localStorage.getItem('chipless.owedLeave')).toBeNull();
    const third = fakeClient();
    renderHook(() => useRoom(third.factory));
    await act(async () => third.emit().session({ playerId: 'ben', token: 't' }));
    expect(third.client.command).not.toHaveBeenCalled();
  });

  it('any other answer is the end of it: a refused or failed leave still sends the player home, owing nothing', async () => {
    const { client, emit, result } = await seated();
    client.command.mockResolvedValueOnce({ ok: false, error: SOMETHING_WENT_WRONG });
    await act(async () => {
      await result.current.leave();
    });
    expect(result.current.snapshot).toBeNull();
    expect(result.current.notice).toBeNull();
    await act(async () => emit().session({ playerId: 'ben', token: 't' }));
    expect(client.command).toHaveBeenCalledTimes(1);
  });
});

describe('useRoom: a server that keeps failing a resume', () => {
  it('gives up on the remembered room after a few failed resumes, so the phone is not stuck on a spinner', async () => {
    vi.useFakeTimers();
    try {
      localStorage.setItem('chipless.roomCode', 'ABCDE');
      const { client, factory, emit } = fakeClient({ ok: false, error: SOMETHING_WENT_WRONG });
      const { result, unmount } = renderHook(() => useRoom(factory));
      await act(async () => emit().session({ playerId: 'ben', token: 't' }));
      await act(async () => vi.advanceTimersByTimeAsync(RESUME_RETRY_MS * (RESUME_SERVER_RETRIES + 2)));
      expect(client.resume).toHaveBeenCalledTimes(RESUME_SERVER_RETRIES + 1);
      expect(result.current.resuming).toBe(false);
      expect(result.current.notice).toBe('Your previous game is no longer available.');
      unmount();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('useRoom: a remembered room that no longer exists', () => {
  it("says the previous game is gone, not 'check the room code' (nobody typed a code)", async () => {
    localStorage.setItem('chipless.roomCode', 'ABCDE');
    const { client, factory, emit } = fakeClient({ ok: false, error: 'Room not found' });
    // As the server does: a 'gone' notice first, then the refusal.
    client.resume.mockImplementationOnce(async () => {
      emit().gone({ roomCode: 'ABCDE', reason: 'not_found' });
      return { ok: false, error: 'Room not found' };
    });
    const { result } = renderHook(() => useRoom(factory));
    await act(async () => emit().session({ playerId: 'ben', token: 't' }));
    expect(result.current.snapshot).toBeNull();
    expect(result.current.resuming).toBe(false);
    expect(result.current.notice).toBe('Your previous game is no longer available.');
  });
});

import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Ack, type RoomSnapshot, SOMETHING_WENT_WRONG } from '../../shared/protocol';
import { lobby, snapshot } from '../test/rooms';
import type { RoomClient, RoomClientEvents, RoomClientFactory } from './client';
import { RESUME_RETRY_MS, RESUME_SERVER_RETRIES, useRoom } from './use-room';

afterEach(cleanup);
beforeEach(() => localStorage.clear());

const snap = snapshot(lobby(['Ana', 'Ben']));

function fakeClient(resume: Ack<RoomSnapshot>) {
  let events!: RoomClientEvents;
  const client = {
    createRoom: vi.fn(async (): Promise<Ack<RoomSnapshot>> => ({ ok: true, data: snap })),
    joinRoom: vi.fn(async (): Promise<Ack<RoomSnapshot>> => ({ ok: true, data: snap })),
    resume: vi.fn(async () => resume),
    command: vi.fn(async (): Promise<Ack<{ version: number }>> => ({ ok: true, data: { version: 2 } })),
    close: vi.fn(),
  } satisfies RoomClient;
  const factory: RoomClientFactory = (e) => {
    events = e;
    return client;
  };
  return { client, factory, emit: () => events };
}

describe('useRoom: leaving, rejoining and a server hiccup on resume', () => {
  it('after leaving a room and joining it again, the room being closed still sends the player home', async () => {
    const { factory, emit } = fakeClient({ ok: true, data: snap });
    const { result } = renderHook(() => useRoom(factory));
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

  it('keeps the remembered room when the server fails to answer a resume for now, and asks again', async () => {
    vi.useFakeTimers();
    try {
      localStorage.setItem('chipless.roomCode', 'ABCDE');
      const { client, factory, emit } = fakeClient({ ok: false, error: SOMETHING_WENT_WRONG });
      const { result, unmount } = renderHook(() => useRoom(factory));
      await act(async () => emit().session({ playerId: 'ben', token: 't' }));
      // A server hiccup is not "your game is gone": the seat is still there.
      expect(result.current.notice).toBeNull();
      expect(result.current.resuming).toBe(true);
      expect(localStorage.getItem('chipless.roomCode')).toBe('ABCDE');
      client.resume.mockResolvedValueOnce({ ok: true, data: snap });
      await act(async () => vi.advanceTimersByTimeAsync(RESUME_RETRY_MS));
      expect(client.resume).toHaveBeenCalledTimes(2);
      expect(result.current.snapshot).toBe(snap);
      expect(result.current.resuming).toBe(false);
      unmount();
    } finally {
      vi.useRealTimers();
    }
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

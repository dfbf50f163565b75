/**
 * A seat link opened on a phone (`/?seat=…`, the host's "Move Bob to a New Phone"): the home screen
 * claims it once when the phone sits in no game, and says why not when it does.
 */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { StrictMode, useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Ack, SeatClaim, SeatLinkResponse } from '../../shared/protocol';
import { NO_CONNECTION_ERROR } from '../net/client';
import type { RoomApi } from '../net/use-room';
import { MemoryRouter, useSearchParams } from '../router';
import { roomApi } from '../test/room-api';
import { lobby, snapshot, started, step } from '../test/rooms';
import { HomeView } from './Home';

// The landing asks the server for its counter and config: not here.
beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response('nope', { status: 500 })),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** Ben's seat in game ABCDE (room code, player id, expiry, signature). */
const BENS_SEAT = 'ABCDE.ben.bGlua2lkMDAx.1790000000.c2lnbmF0dXJl';
const claimed: Ack<SeatClaim> = {
  ok: true,
  data: { roomCode: 'ABCDE', credentials: { playerId: 'ben', token: 't' } },
};

/** The page's query string as the router has it now. */
let shownParams = '';
function Where() {
  const [params] = useSearchParams();
  shownParams = params.toString();
  return null;
}

/** Changes the api the home screen is shown with (as use-room's state changes), from the test. */
let setApi: (change: Partial<RoomApi>) => void = () => {};
function Harness({ initial }: { initial: Partial<RoomApi> }) {
  const [api, set] = useState(() => roomApi(initial));
  setApi = (change) => set((a) => ({ ...a, ...change }));
  return <HomeView api={api} />;
}

/** A claim whose answer the test gives (`answer`). */
function deferredClaim() {
  let resolve: (res: Ack<SeatClaim>) => void = () => {};
  const claimSeat = vi.fn(
    (_seat: string) =>
      new Promise<Ack<SeatClaim>>((r) => {
        resolve = r;
      }),
  );
  const answer = (res: Ack<SeatClaim>) => act(async () => resolve(res));
  return { claimSeat, answer };
}

function show(url: string, initial: Partial<RoomApi>) {
  return render(
    <StrictMode>
      <MemoryRouter initialEntry={url}>
        <Harness initial={initial} />
        <Where />
      </MemoryRouter>
    </StrictMode>,
  );
}

describe('Home: a seat link on a phone that sits in no game', () => {
  it('claims it once, waits on "Taking your seat…", drops the link from the address and opens the seat\'s game', async () => {
    const { claimSeat, answer } = deferredClaim();
    await act(async () => show(`/?seat=${BENS_SEAT}`, { playerId: 'zed', claimSeat }));
    expect(claimSeat).toHaveBeenCalledTimes(1);
    expect(claimSeat).toHaveBeenCalledWith(BENS_SEAT);
    expect(screen.getByText('Taking your seat…')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Start a Game' })).toBeNull();
    // Re-rendered meanwhile (a connection event): asked once all the same.
    await act(async () => setApi({ connection: 'online' }));
    expect(claimSeat).toHaveBeenCalledTimes(1);
    // Taken: use-room resumes the seat's room (resuming) while the phone reconnects as Ben.
    await answer(claimed);
    await act(async () => setApi({ resuming: true, playerId: 'ben' }));
    expect(shownParams).toBe('');
    expect(screen.getByText('Taking your seat…')).toBeTruthy();
    await act(async () => setApi({ resuming: false, snapshot: snapshot(lobby(['Ana', 'Ben'])) }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Game Lobby' })).toBeTruthy();
    expect(claimSeat).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('region', { name: 'Seat link' })).toBeNull();
  });

  it("a refusal: the link goes, and the landing says the server's reason until dismissed", async () => {
    const { claimSeat, answer } = deferredClaim();
    await act(async () => show(`/?seat=${BENS_SEAT}`, { playerId: 'zed', claimSeat }));
    await answer({ ok: false, error: 'This link has expired. Ask the host for a new one.' });
    expect(shownParams).toBe('');
    expect(screen.queryByText('Taking your seat…')).toBeNull();
    const notice = screen.getByText('This link has expired. Ask the host for a new one.').closest('.notice');
    expect(notice).not.toBeNull();
    expect(screen.getByRole('button', { name: 'Start a Game' })).toBeTruthy();
    fireEvent.click(within(notice as HTMLElement).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText('This link has expired. Ask the host for a new one.')).toBeNull();
    expect(claimSeat).toHaveBeenCalledTimes(1);
  });

  it('no connection when asked: the link stays in the address and is asked again once the phone is back online', async () => {
    // The answer lost (a Wi-Fi blip on the borrowed phone): nothing says the link is bad, and dropped
    // from the address (replaced, no history entry) it was gone, the QR code or the chat to find again.
    const claimSeat = vi.fn(
      async (_seat: string): Promise<Ack<SeatClaim>> => ({ ok: false, error: NO_CONNECTION_ERROR }),
    );
    await act(async () => show(`/?seat=${BENS_SEAT}`, { playerId: 'zed', claimSeat }));
    expect(claimSeat).toHaveBeenCalledTimes(1);
    expect(shownParams).toBe(`seat=${BENS_SEAT}`);
    expect(screen.getByText('Taking your seat…')).toBeTruthy();
    await act(async () => setApi({ connection: 'offline' }));
    expect(claimSeat).toHaveBeenCalledTimes(1);
    claimSeat.mockImplementation(async () => claimed);
    await act(async () => setApi({ connection: 'online' }));
    expect(claimSeat).toHaveBeenCalledTimes(2);
    expect(shownParams).toBe('');
  });

  it('waits while the remembered room resumes and while offline; a game that is over is no seat', async () => {
    const claimSeat = vi.fn(async (_seat: string) => claimed);
    await act(async () =>
      show(`/?seat=${BENS_SEAT}`, { playerId: 'zed', claimSeat, resuming: true, connection: 'connecting' }),
    );
    expect(screen.getByText('Getting back to your game…')).toBeTruthy();
    // The remembered game is over (its results): still no claim while the phone is not connected.
    const ended = snapshot(step(started(['Zed', 'Ann']), 'zed', { type: 'endGame' }));
    await act(async () => setApi({ resuming: false, snapshot: ended }));
    expect(screen.getByText('Taking your seat…')).toBeTruthy();
    await act(async () => setApi({ connection: 'offline' }));
    expect(claimSeat).not.toHaveBeenCalled();
    await act(async () => setApi({ connection: 'online' }));
    expect(claimSeat).toHaveBeenCalledTimes(1);
    expect(shownParams).toBe('');
  });
});

describe("Home: a seat link refused on the last game's results", () => {
  it('the results stay, with the reason above them until dismissed', async () => {
    const claimSeat = vi.fn(
      async (_seat: string): Promise<Ack<SeatClaim>> => ({
        ok: false,
        error: 'This seat is no longer at the table.',
      }),
    );
    const ended = snapshot(step(started(['Zed', 'Ann']), 'zed', { type: 'endGame' }));
    await act(async () => show(`/?seat=${BENS_SEAT}`, { playerId: 'zed', snapshot: ended, claimSeat }));
    expect(claimSeat).toHaveBeenCalledTimes(1);
    expect(shownParams).toBe('');
    const notice = await screen.findByRole('region', { name: 'Seat link' });
    expect(notice.textContent).toContain('This seat is no longer at the table.');
    expect(screen.getByRole('button', { name: 'Back to Home' })).toBeTruthy();
    fireEvent.click(within(notice).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('region', { name: 'Seat link' })).toBeNull();
  });
});

/** Seated as `me` in `room`'s game (ABCDE, still on). */
const seatedIn = (me: string, room = lobby(['Ana', 'Ben', 'Zed'])) => ({
  playerId: me,
  snapshot: snapshot(room),
});

describe('Home: a seat link on a phone that plays in a game', () => {
  it('does not take the seat: it says why, and Dismiss drops the link', async () => {
    const claimSeat = vi.fn(async (_seat: string) => claimed);
    const elsewhere = BENS_SEAT.replace('ABCDE', 'FGHJK');
    await act(async () => show(`/?seat=${elsewhere}`, { ...seatedIn('zed'), claimSeat }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Game Lobby' })).toBeTruthy();
    const notice = screen.getByRole('region', { name: 'Seat link' });
    expect(notice.textContent).toContain(
      'This link moves a seat to this phone, but this phone already plays in game ABCDE. Open the link in a private tab, or leave game ABCDE first.',
    );
    expect(claimSeat).not.toHaveBeenCalled();
    expect(shownParams).toBe(`seat=${elsewhere}`);
    fireEvent.click(within(notice).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('region', { name: 'Seat link' })).toBeNull();
    expect(shownParams).toBe('');
    expect(claimSeat).not.toHaveBeenCalled();
  });

  it('a phone holding its seat there by a link is told to give the phone back, not to leave (which would take that player out)', async () => {
    const claimSeat = vi.fn(async (_seat: string) => claimed);
    const elsewhere = BENS_SEAT.replace('ABCDE', 'FGHJK');
    await act(async () => show(`/?seat=${elsewhere}`, { ...seatedIn('zed'), seatRoom: 'ABCDE', claimSeat }));
    expect(screen.getByRole('region', { name: 'Seat link' }).textContent).toContain(
      'This link moves a seat to this phone, but this phone holds a seat in game ABCDE by a link. Open the link in a private tab, or give this phone back first (under the leave button).',
    );
    expect(claimSeat).not.toHaveBeenCalled();
  });

  it('leaving that game first: the link then takes the seat', async () => {
    const claimSeat = vi.fn(async (_seat: string) => claimed);
    await act(async () => show(`/?seat=${BENS_SEAT}`, { ...seatedIn('zed'), claimSeat }));
    expect(claimSeat).not.toHaveBeenCalled();
    await act(async () => setApi({ snapshot: null }));
    expect(claimSeat).toHaveBeenCalledTimes(1);
  });

  it("the link of this phone's own seat: dropped without a word", async () => {
    const claimSeat = vi.fn(async (_seat: string) => claimed);
    await act(async () => show(`/?seat=${BENS_SEAT}`, { ...seatedIn('ben'), claimSeat }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Game Lobby' })).toBeTruthy();
    expect(shownParams).toBe('');
    expect(screen.queryByRole('region', { name: 'Seat link' })).toBeNull();
    expect(claimSeat).not.toHaveBeenCalled();
  });

  it("another player's seat at this phone's own table: says whose, and not to leave the game", async () => {
    // Cal, at Ann's table, opens the link the host made for Ben: leaving his game first (the notice for
    // a phone in another game) would cost Cal his own seat, and the link is for Ben's new phone anyway.
    const claimSeat = vi.fn(async (_seat: string) => claimed);
    await act(async () => show(`/?seat=${BENS_SEAT}`, { ...seatedIn('zed'), claimSeat }));
    const notice = screen.getByRole('region', { name: 'Seat link' });
    expect(notice.textContent).toContain(
      "This link moves Ben's seat to Ben's new phone. This phone already plays in this game: give the link to Ben.",
    );
    expect(notice.textContent).not.toContain('leave game');
    expect(claimSeat).not.toHaveBeenCalled();
    fireEvent.click(within(notice).getByRole('button', { name: 'Dismiss' }));
    expect(shownParams).toBe('');
  });

  it('a phone only asking to join this very game gives its request up and takes the seat', async () => {
    // Ben's phone is flat; on Zed's phone he first asked to join again (the old way), then the host
    // made him the link instead: the request is not a seat (no chips yet), the link is what he wants.
    const leave = vi.fn(async () => {
      setApi({ snapshot: null });
      return { ok: true, data: null } as const;
    });
    const claimSeat = vi.fn(async (_seat: string) => claimed);
    const table = snapshot(
      step(started(['Ana', 'Ben']), 'zed', { type: 'join', name: 'Zed', startingChips: 5_000 }),
    );
    await act(async () =>
      show(`/?seat=${BENS_SEAT}`, {
        playerId: 'zed',
        snapshot: table,
        claimSeat,
        leave,
        connection: 'online',
      }),
    );
    expect(leave).toHaveBeenCalledTimes(1);
    expect(claimSeat).toHaveBeenCalledTimes(1);
    expect(claimSeat).toHaveBeenCalledWith(BENS_SEAT);
    expect(screen.queryByRole('region', { name: 'Seat link' })).toBeNull();
  });

  it('a request to join another game stays: the notice, no leave', async () => {
    const leave = vi.fn(async () => ({ ok: true, data: null }) as const);
    const claimSeat = vi.fn(async (_seat: string) => claimed);
    const table = snapshot(lobby(['Ana', 'Zed'], { pending: ['Zed'] }));
    await act(async () =>
      show(`/?seat=${BENS_SEAT.replace('ABCDE', 'FGHJK')}`, {
        playerId: 'zed',
        snapshot: table,
        claimSeat,
        leave,
        connection: 'online',
      }),
    );
    expect(screen.getByRole('region', { name: 'Seat link' })).toBeTruthy();
    expect(leave).not.toHaveBeenCalled();
    expect(claimSeat).not.toHaveBeenCalled();
  });

  it("Ben's player in another game is not this link's seat: the notice", async () => {
    const claimSeat = vi.fn(async (_seat: string) => claimed);
    await act(async () =>
      show(`/?seat=${BENS_SEAT.replace('ABCDE', 'FGHJK')}`, { ...seatedIn('ben'), claimSeat }),
    );
    expect(screen.getByRole('region', { name: 'Seat link' })).toBeTruthy();
    expect(claimSeat).not.toHaveBeenCalled();
  });
});

describe('Home: the host at the table', () => {
  it("asks the server for a seat link through the api's seatLink", async () => {
    const seatLink = vi.fn(
      async (_id: string): Promise<Ack<SeatLinkResponse>> => ({
        ok: true,
        data: { seat: BENS_SEAT, expiresInMs: 900_000 },
      }),
    );
    const table = snapshot(started(['Ana', 'Ben']), { ben: false });
    await act(async () => show('/', { playerId: 'ana', snapshot: table, seatLink }));
    const button = await screen.findByRole('button', { name: 'Move Ben to a New Phone' });
    await act(async () => fireEvent.click(button));
    expect(seatLink).toHaveBeenCalledWith('ben');
    const dialog = screen.getByRole('dialog', { name: 'Move Ben to a New Phone' });
    expect(dialog.querySelector('.join-link')!.textContent).toContain(`/?seat=${BENS_SEAT}`);
  });
});

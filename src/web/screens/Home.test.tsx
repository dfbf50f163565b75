import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RoomSnapshot } from '../../shared/protocol';
import type { RoomApi } from '../net/use-room';
import { MemoryRouter, useSearchParams } from '../router';
import { roomApi } from '../test/room-api';
import { lobby, snapshot, started, step } from '../test/rooms';
import { HomeView } from './Home';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ended = snapshot(step(started(['Ana', 'Ben']), 'ana', { type: 'endGame' }));

function Harness({ initial }: { initial: RoomSnapshot | null }) {
  const [snap, setSnap] = useState(initial);
  return <HomeView api={roomApi({ snapshot: snap, goHome: () => setSnap(null) })} />;
}

describe('Home: a join link while the last game is over', () => {
  it('a join link opened while the last game is over joins the new room after "Back to Home"', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('nope', { status: 500 })),
    );
    await act(async () =>
      render(
        <MemoryRouter initialEntry="/?join=NEWCO">
          <Harness initial={ended} />
        </MemoryRouter>,
      ),
    );
    // The last game's results first (they are what the friends settle up with)...
    const back = await screen.findByRole('button', { name: 'Back to Home' });
    await act(async () => fireEvent.click(back));
    const ask = screen.getByRole('dialog', { name: 'Leave the results?' });
    await act(async () => fireEvent.click(within(ask).getByRole('button', { name: 'Back to Home' })));
    // ...then the new room's join form, with its code, not a bare landing.
    const dialog = screen.getByRole('dialog', { name: 'Join a Game' });
    expect((within(dialog).getByLabelText('Room Code') as HTMLInputElement).value).toBe('NEWCO');
  });
});

/** The page's query string as the router has it now (Where renders nothing). */
let shownParams = '';
function Where() {
  const [params] = useSearchParams();
  shownParams = params.toString();
  return null;
}

/** Seated in `initial`'s room as ben; Leave takes the phone home. */
function Seated({ initial }: { initial: RoomSnapshot }) {
  const [snap, setSnap] = useState<RoomSnapshot | null>(initial);
  return (
    <HomeView
      api={roomApi({
        snapshot: snap,
        playerId: 'ben',
        leave: async () => {
          setSnap(null);
          return { ok: true, data: null };
        },
      })}
    />
  );
}

describe('Home: a join link to another room while seated in one', () => {
  // Bob sits in Ann's lobby (ABCDE) and taps the link Cat sent for her room. Before, the phone showed
  // Ann's lobby and dropped the link without a word: Bob could not tell why he was not in Cat's game.
  it('the seat stays on screen, the phone says the link is for another game, and leaving opens its join form', async () => {
    const seated = snapshot(lobby(['Ana', 'Ben']));
    await act(async () =>
      render(
        <MemoryRouter initialEntry="/?join=newco">
          <Seated initial={seated} />
        </MemoryRouter>,
      ),
    );
    await screen.findByRole('heading', { level: 1, name: 'Game Lobby' });
    const line = screen.getByRole('region', { name: 'Join link' });
    expect(line.textContent).toContain('This link is for game NEWCO. Leave game ABCDE first to join it.');
    // Not a live region: the announcer says it, once (announcer.ts).
    expect(line.closest('[role="status"], [aria-live]')).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Leave room' })));
    const dialog = screen.getByRole('dialog', { name: 'Join a Game' });
    expect((within(dialog).getByLabelText('Room Code') as HTMLInputElement).value).toBe('NEWCO');
  });

  it('Dismiss keeps the seat and forgets the link; a link to the room the phone is in says nothing', async () => {
    const seated = snapshot(lobby(['Ana', 'Ben']));
    const { unmount } = render(
      <MemoryRouter initialEntry="/?join=NEWCO">
        <Seated initial={seated} />
      </MemoryRouter>,
    );
    const line = screen.getByRole('region', { name: 'Join link' });
    await act(async () => fireEvent.click(within(line).getByRole('button', { name: 'Dismiss' })));
    expect(screen.queryByRole('region', { name: 'Join link' })).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Leave room' })));
    expect(screen.queryByRole('dialog', { name: 'Join a Game' })).toBeNull();
    unmount();
    render(
      <MemoryRouter initialEntry="/?join=ABCDE">
        <Seated initial={seated} />
      </MemoryRouter>,
    );
    expect(screen.queryByRole('region', { name: 'Join link' })).toBeNull();
  });

  it('a screen reader hears the notice as it shows; Dismiss leaves focus on the screen, not the page', async () => {
    document.getElementById('announcer')?.remove();
    const seated = snapshot(lobby(['Ana', 'Ben']));
    await act(async () =>
      render(
        <MemoryRouter initialEntry="/?join=NEWCO">
          <Seated initial={seated} />
        </MemoryRouter>,
      ),
    );
    const heading = await screen.findByRole('heading', { level: 1, name: 'Game Lobby' });
    await vi.waitFor(() =>
      expect(document.getElementById('announcer')?.textContent).toBe(
        'This link is for game NEWCO. Leave game ABCDE first to join it.',
      ),
    );
    const dismiss = within(screen.getByRole('region', { name: 'Join link' })).getByRole('button', {
      name: 'Dismiss',
    });
    dismiss.focus();
    await act(async () => fireEvent.click(dismiss));
    expect(screen.queryByRole('region', { name: 'Join link' })).toBeNull();
    expect(document.activeElement).toBe(heading);
  });

  it('a link cut short ("?join=zz") is no link to another game: no notice, and it is dropped', async () => {
    const seated = snapshot(lobby(['Ana', 'Ben']));
    await act(async () =>
      render(
        <MemoryRouter initialEntry="/?join=zz">
          <Seated initial={seated} />
          <Where />
        </MemoryRouter>,
      ),
    );
    await screen.findByRole('heading', { level: 1, name: 'Game Lobby' });
    expect(screen.queryByRole('region', { name: 'Join link' })).toBeNull();
    expect(shownParams).toBe('');
  });

  it('on the last game\'s results the link waits for "Back to Home", and says so', () => {
    render(
      <MemoryRouter initialEntry="/?join=NEWCO">
        <Harness initial={ended} />
      </MemoryRouter>,
    );
    const line = screen.getByRole('region', { name: 'Join link' });
    expect(line.textContent).toContain('This link is for game NEWCO. Tap Back to Home to join it.');
  });
});

describe('Home: back from a lost connection', () => {
  const noConnection = {
    ok: false,
    error: 'No connection right now. Please try again in a moment.',
  } as const;
  const api = (snap: RoomSnapshot, me: string, connection: RoomApi['connection']): RoomApi =>
    roomApi({
      connection,
      snapshot: snap,
      playerId: me,
      createRoom: async () => noConnection,
      joinRoom: async () => noConnection,
      send: async () => noConnection,
    });

  // Heads-up, Ana (dealer/small blind) acts first; or the host's start in the lobby. The tap timed out
  // while the phone was offline; connected again, the resume brings the same room (it never arrived).
  it.each([
    ["the turn's buttons", () => snapshot(started(['Ana', 'Ben'])), 'Call $1.00'],
    ["the lobby's Start Game", () => snapshot(lobby(['Ana', 'Ben'])), 'Start Game'],
  ])(
    "'No connection…' under %s goes once the phone is connected again (same room version)",
    async (_, snapOf, label) => {
      const snap = snapOf();
      const { rerender } = render(
        <MemoryRouter>
          <HomeView api={api(snap, 'ana', 'offline')} />
        </MemoryRouter>,
      );
      const button = await screen.findByRole('button', { name: label });
      await act(async () => fireEvent.click(button));
      expect(screen.getByRole('alert').textContent).toBe(
        'No connection right now. Please try again in a moment.',
      );
      await act(async () =>
        rerender(
          <MemoryRouter>
            <HomeView api={api(snap, 'ana', 'online')} />
          </MemoryRouter>,
        ),
      );
      expect(screen.queryByRole('alert')).toBeNull();
      expect(screen.getByRole('button', { name: label })).toHaveProperty('disabled', false);
    },
  );

  it("'No connection…' in the Raise dialog goes once the phone is connected again, as the table's does", async () => {
    const snap = snapshot(started(['Ana', 'Ben']));
    const view = (connection: RoomApi['connection']) => (
      <MemoryRouter>
        <HomeView api={api(snap, 'ana', connection)} />
      </MemoryRouter>
    );
    const { rerender } = render(view('offline'));
    const raise = await screen.findByRole('button', { name: 'Raise' });
    await act(async () => fireEvent.click(raise));
    const dialog = screen.getByRole('dialog', { name: 'Raise' });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm Raise' })));
    expect(within(dialog).getByRole('alert').textContent).toBe(
      'No connection right now. Please try again in a moment.',
    );
    await act(async () => rerender(view('online')));
    expect(within(screen.getByRole('dialog', { name: 'Raise' })).queryByRole('alert')).toBeNull();
  });
});

describe('Home: "Reconnecting…" read out (session 36 accessibility audit\'s left item)', () => {
  const api = (snap: RoomSnapshot, connection: RoomApi['connection']) =>
    roomApi({ connection, snapshot: snap, playerId: 'ben' });
  const view = (snap: RoomSnapshot, connection: RoomApi['connection']) => (
    <MemoryRouter>
      <HomeView api={api(snap, connection)} />
    </MemoryRouter>
  );
  const said = () => {
    act(() => vi.advanceTimersByTime(60));
    return document.getElementById('announcer')?.textContent ?? null;
  };

  it('the banner fills a live region already in the page; under a dialog the announcer says it', async () => {
    vi.useFakeTimers();
    try {
      document.getElementById('announcer')?.remove();
      const snap = snapshot(started(['Ana', 'Ben']));
      const { rerender } = await act(async () => render(view(snap, 'online')));
      await act(async () => vi.advanceTimersByTimeAsync(100));
      // There, empty, before anything goes wrong: a region created with its text is often not read.
      const region = document.getElementById('connection-status')!;
      expect(region.getAttribute('role')).toBe('status');
      expect(region.textContent).toBe('');
      await act(async () => rerender(view(snap, 'offline')));
      expect(document.getElementById('connection-status')).toBe(region);
      expect(region.textContent).toBe('Reconnecting… Your seat is safe. Picking up where you left off.');
      // No dialog: the banner's own region says it, the announcer does not (no double reading).
      expect(said()).not.toContain('Reconnecting');
      await act(async () => rerender(view(snap, 'online')));
      expect(region.textContent).toBe('');

      // Ben opens Leave game (#root inert under it), and the connection drops: said outside #root.
      await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Leave game' })));
      expect(screen.getByRole('dialog', { name: 'Leave this game?' })).toBeTruthy();
      await act(async () => rerender(view(snap, 'offline')));
      expect(said()).toBe('Reconnecting… Your seat is safe. Picking up where you left off.');
    } finally {
      vi.useRealTimers();
    }
  });

  it('the landing says it too, without the seat hint (as before the live region; review of session 37)', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('nope', { status: 500 })),
    );
    await act(async () =>
      render(
        <MemoryRouter>
          <HomeView api={roomApi({ connection: 'offline', snapshot: null, resuming: false })} />
        </MemoryRouter>,
      ),
    );
    expect(document.getElementById('connection-status')?.textContent).toBe('Reconnecting…');
    expect(screen.getByRole('button', { name: 'Start a Game' })).toBeTruthy();
  });
});

describe('Home: a new screen opens at its top (regression, session 33 review)', () => {
  it('from the lobby to the table, and from the table to the game over, the page scrolls to the top', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('nope', { status: 500 })),
    );
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    const room = lobby(['Ana', 'Ben']);
    const api = (snap: RoomSnapshot) => roomApi({ snapshot: snap, playerId: 'ben' });
    const view = (snap: RoomSnapshot) => (
      <MemoryRouter>
        <HomeView api={api(snap)} />
      </MemoryRouter>
    );
    const { rerender } = await act(async () => render(view(snapshot(room))));
    expect(scrollTo).not.toHaveBeenCalled();
    // The same screen again (a broadcast): the player's scroll stays.
    await act(async () =>
      rerender(view(snapshot(step(room, 'ana', { type: 'updateSettings', smallBlind: 50, bigBlind: 100 })))),
    );
    expect(scrollTo).not.toHaveBeenCalled();
    const playing = step(room, 'ana', { type: 'startGame' });
    await act(async () => rerender(view(snapshot(playing))));
    expect(scrollTo).toHaveBeenCalledTimes(1);
    expect(scrollTo).toHaveBeenLastCalledWith(0, 0);
    await act(async () => rerender(view(snapshot(step(playing, 'ana', { type: 'endGame' })))));
    expect(scrollTo).toHaveBeenCalledTimes(2);
    scrollTo.mockRestore();
  });
});

/**
 * What a screen reader is told when the screen changes under it (session 36's accessibility audit):
 * the turn and each hand's result through the announcer outside #root (components/announcer.ts), and
 * focus on the new screen's heading (or the landing's notice) when the screen opens with focus nowhere.
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Command, Room } from '../../engine/types';
import type { Ack } from '../../shared/protocol';
import { MemoryRouter } from '../router';
import { actNow, lobby, snapshot, started, step } from '../test/rooms';
import { GameOver } from './GameOver';
import { Landing } from './Landing';
import { Lobby } from './Lobby';
import { Table } from './Table';

const ok: Ack<null> = { ok: true, data: null };

beforeEach(() => {
  vi.useFakeTimers();
  document.getElementById('announcer')?.remove();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const view = (room: Room, me: string) => (
  <Table snapshot={snapshot(room)} me={me} send={async (_c: Command) => ok} onLeave={async () => ok} />
);

/** What the announcer says once its moment has passed (it empties, then fills 50 ms later). */
function said(): string | null {
  act(() => vi.advanceTimersByTime(60));
  return document.getElementById('announcer')?.textContent ?? null;
}

describe('the announcer at the table', () => {
  it('says the turn when the table opens, and a turn change only while a dialog covers the turn line', () => {
    const room = started(['Ana', 'Ben', 'Cal']); // Ana (dealer) to act
    const { rerender } = render(view(room, 'ben'));
    expect(said()).toBe("Ana's Turn");
    const region = document.getElementById('announcer')!;
    expect(region.getAttribute('aria-live')).toBe('polite');
    expect(region.parentElement).toBe(document.body);

    // No dialog: the dock's own live region says it; the announcer is not used (no double reading).
    const afterAna = actNow(room, 'CALL');
    rerender(view(afterAna, 'ben'));
    expect(screen.getByRole('status').textContent).toBe('Your Turn · Stack $49.00');
    expect(said()).toBe("Ana's Turn");

    // Ben opens Leave game, and the turn moves on under the dialog: said outside #root.
    fireEvent.click(screen.getByRole('button', { name: 'Leave game' }));
    expect(screen.getByRole('dialog', { name: 'Leave this game?' })).toBeTruthy();
    rerender(view(actNow(afterAna, 'CALL'), 'ben'));
    expect(said()).toBe("Cal's Turn");
  });

  it('says the turn that moves on as the dialog it was under closes (a raise made)', () => {
    const room = actNow(started(['Ana', 'Ben', 'Cal']), 'CALL'); // Ana calls: Ben's turn
    const { rerender } = render(view(room, 'ben'));
    said();
    fireEvent.click(screen.getByRole('button', { name: 'Raise' }));
    expect(screen.getByRole('dialog', { name: 'Raise' })).toBeTruthy();
    // Ben's raise goes through: the turn moves to Cal and the dialog closes in the same render.
    rerender(view(actNow(room, 'RAISE', 600), 'ben'));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(said()).toBe("Cal's Turn");
  });

  it("says a fold win in the overlay's words, once", () => {
    let room = started(['Ana', 'Ben', 'Cal']);
    const { rerender } = render(view(room, 'ana'));
    room = actNow(room, 'FOLD'); // Ana
    rerender(view(room, 'ana'));
    room = actNow(room, 'FOLD'); // Ben: Cal wins the blinds, his own $2.00 back with them
    rerender(view(room, 'ana'));
    expect(said()).toBe('Cal wins! $3.00');
    // The overlay shows it to the eye, not as a second live region.
    act(() => vi.advanceTimersByTime(500));
    expect(document.querySelector('.win-overlay')!.getAttribute('role')).toBeNull();
    // Said once: the table's next renders (the overlay showing, then going) say nothing more.
    document.getElementById('announcer')!.textContent = '';
    rerender(view(room, 'ana'));
    act(() => vi.advanceTimersByTime(4_000));
    rerender(view(room, 'ana'));
    expect(said()).toBe('');
  });

  it("says a showdown's awards as the hand log writes them, not before", () => {
    // Heads-up, called and checked down to the showdown: a $4.00 pot.
    let room = started(['Ana', 'Ben']);
    while (room.gameState.stage !== 'SHOWDOWN')
      room = room.gameState.canAdvanceStage
        ? step(room, 'ana', { type: 'advanceStage' })
        : actNow(room, 'CALL');
    const { rerender } = render(view(room, 'ben'));
    expect(said() ?? '').toBe('');
    rerender(view(step(room, 'ana', { type: 'declareWinners', winnerIds: ['ben'] }), 'ben'));
    expect(said()).toBe('Pot $4.00 to Ben');
  });

  it("tells the host the showdown is theirs to declare; the all-in's board to deal with it", () => {
    let room = started(['Ana', 'Ben', 'Cal']);
    const { rerender } = render(view(room, 'ana'));
    room = actNow(room, 'ALL_IN'); // Ana
    room = actNow(room, 'FOLD'); // Ben
    room = actNow(room, 'CALL'); // Cal all-in too: to the showdown before the flop
    rerender(view(room, 'ana'));
    expect(said()).toBe(
      'All Players All-In. Deal the flop, the turn and the river first. Host can now declare the winner.',
    );
  });

  it('tells a latecomer watching the table that the host approved them, once', () => {
    let room = step(started(['Ana', 'Ben']), 'dee', { type: 'join', name: 'Dee', startingChips: 5_000 });
    const { rerender } = render(view(room, 'dee'));
    said();
    document.getElementById('announcer')!.textContent = '';
    room = step(room, 'ana', { type: 'approve', playerId: 'dee' });
    rerender(view(room, 'dee'));
    expect(said()).toBe('The host approved you: you are dealt in from the next hand.');
    document.getElementById('announcer')!.textContent = '';
    rerender(view(actNow(room, 'CALL'), 'dee'));
    expect(said()).toBe('');
  });

  it('shows the board reached, not five cards, after a fold win before the flop', () => {
    let room = started(['Ana', 'Ben', 'Cal']);
    room = actNow(room, 'FOLD');
    room = actNow(room, 'FOLD');
    render(view(room, 'ana'));
    expect(screen.getByRole('img', { name: '0 of 5 community cards dealt' })).toBeTruthy();
    expect(document.querySelectorAll('.card-slot.dealt')).toHaveLength(0);
  });
});

describe('the announcer in the lobby', () => {
  it('tells the host of each newcomer asking to join, once, not of those already waiting', () => {
    const room = lobby(['Ana', 'Ben', 'Cal'], { pending: ['Cal'] });
    const host = (r: Room) => (
      <Lobby snapshot={snapshot(r)} me="ana" send={async () => ok} onLeave={async () => ok} />
    );
    const { rerender } = render(host(room));
    expect(said() ?? '').toBe('');
    const withDee = step(room, 'dee', { type: 'join', name: 'Dee', startingChips: 2_500 });
    rerender(host(withDee));
    expect(said()).toBe('Dee wants to join with $25.00 chips');
    // Cal approved: nothing new to say.
    document.getElementById('announcer')!.textContent = '';
    rerender(host(step(withDee, 'ana', { type: 'approve', playerId: 'cal' })));
    expect(said()).toBe('');
  });
});

describe('focus on a screen that opens with focus nowhere', () => {
  it("the table's, the lobby's and the game over's headings", () => {
    (document.activeElement as HTMLElement | null)?.blur();
    render(view(started(['Ana', 'Ben']), 'ben'));
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1 }));
    cleanup();

    render(
      <Lobby
        snapshot={snapshot(lobby(['Ana', 'Ben']))}
        me="ben"
        send={async () => ok}
        onLeave={async () => ok}
      />,
    );
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1 }));
    cleanup();

    let room = started(['Ana', 'Ben']);
    room = step(room, 'ana', { type: 'endGame' });
    render(<GameOver room={room} me="ben" onHome={() => {}} />);
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1 }));
  });

  it('leaves focus where it is when it is somewhere', () => {
    const field = document.body.appendChild(document.createElement('input'));
    field.focus();
    render(view(started(['Ana', 'Ben']), 'ben'));
    expect(document.activeElement).toBe(field);
    field.remove();
  });

  it("the landing's notice, so a phone sent home hears why", () => {
    // The landing's hand count and config: no server here.
    vi.stubGlobal('fetch', async () => new Response('nope', { status: 500 }));
    (document.activeElement as HTMLElement | null)?.blur();
    render(
      <MemoryRouter>
        <Landing onCreate={async () => ok} onJoin={async () => ok} notice="You were removed from the game." />
      </MemoryRouter>,
    );
    expect(document.activeElement).toBe(screen.getByText('You were removed from the game.').parentElement);
  });
});

/**
 * What a phone shows when another phone (another player, or the same player's second tab) changes the
 * room while this one has a dialog open or a command on its way: each test renders a screen, opens
 * something, then feeds the snapshot the server would broadcast next (built by the real engine).
 */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Command, Room } from '../../engine/types';
import type { Ack, RoomSnapshot } from '../../shared/protocol';
import { actNow, lobby, snapshot, started, step } from '../test/rooms';
import { Lobby } from './Lobby';
import { Table } from './Table';

afterEach(cleanup);

const ok: Ack<null> = { ok: true, data: null };
const at = (room: Room, version: number): RoomSnapshot => ({ ...snapshot(room), version });

/** Ana (host, dealer), Ben and Cal, $50.00 each, everyone calls and checks down to the showdown: one $6.00 pot. */
function threeWayShowdown(): Room {
  let room = started(['Ana', 'Ben', 'Cal']);
  while (room.gameState.stage !== 'SHOWDOWN') {
    room = room.gameState.canAdvanceStage
      ? step(room, 'ana', { type: 'advanceStage' })
      : actNow(room, 'CALL');
  }
  return room;
}

function table(me: string, send: (c: Command) => Promise<Ack<unknown>>) {
  return (room: Room, version: number) => (
    <Table snapshot={at(room, version)} me={me} send={send} onLeave={async () => ok} />
  );
}

describe('Table: the host has a dialog open when another phone changes the room', () => {
  it('Declare Winner: a ticked player who leaves is no longer ticked nor sent', async () => {
    const room = threeWayShowdown();
    expect(room.gameState.pots.map((p) => p.amount)).toEqual([600]);
    const send = vi.fn(async (_c: Command) => ok);
    const view = table('ana', send);
    const { rerender } = render(view(room, 10));
    fireEvent.click(screen.getByRole('button', { name: 'Declare Winner' }));
    const dialog = screen.getByRole('dialog', { name: 'Declare Winner' });
    fireEvent.click(within(dialog).getByLabelText('Ben'));
    fireEvent.click(within(dialog).getByLabelText('Cal'));
    expect(within(dialog).getByRole('button', { name: 'Award Split Pot' })).toBeTruthy();

    // Cal leaves from his phone; Ana and Ben are still in the hand, the pot is still there.
    rerender(view(step(room, 'cal', { type: 'leave' }), 11));
    const still = screen.getByRole('dialog', { name: 'Declare Winner' });
    expect(
      within(still)
        .getAllByRole('checkbox')
        .map((c) => c.parentElement!.textContent),
    ).toEqual(['Ana', 'Ben']);
    expect(within(still).getByLabelText('Ben')).toHaveProperty('checked', true);
    // One winner is left ticked: the pot is not split with someone who is not there any more.
    const award = within(still).getByRole('button', { name: 'Award Pot' });
    await act(async () => fireEvent.click(award));
    expect(send).toHaveBeenCalledExactlyOnceWith({ type: 'declareWinners', winnerIds: ['ben'] });
  });

  it('Declare Winner: the only ticked player leaving leaves nothing ticked (Award Pot waits for a choice)', async () => {
    const room = threeWayShowdown();
    const send = vi.fn(async (_c: Command) => ok);
    const view = table('ana', send);
    const { rerender } = render(view(room, 10));
    fireEvent.click(screen.getByRole('button', { name: 'Declare Winner' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByLabelText('Cal'));
    rerender(view(step(room, 'ana', { type: 'remove', playerId: 'cal' }), 11));
    const dialog = screen.getByRole('dialog', { name: 'Declare Winner' });
    expect(
      within(dialog)
        .getAllByRole('checkbox')
        .map((c) => (c as HTMLInputElement).checked),
    ).toEqual([false, false]);
    expect(within(dialog).getByRole('button', { name: 'Award Pot' })).toHaveProperty('disabled', true);
    expect(send).not.toHaveBeenCalled();
  });

  it('Remove: the confirmation closes when that player has left meanwhile (nothing sent)', async () => {
    const room = started(['Ana', 'Ben', 'Cal']);
    const send = vi.fn(async (_c: Command) => ok);
    const view = table('ana', send);
    const { rerender } = render(view(room, 10));
    fireEvent.click(screen.getByRole('button', { name: 'Remove Ben' }));
    expect(screen.getByRole('dialog', { name: 'Remove this player from the game?' })).toBeTruthy();
    rerender(view(step(room, 'ben', { type: 'leave' }), 11));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(send).not.toHaveBeenCalled();
  });
});

describe("Table: the host's Undo question when the room moves on", () => {
  /** Ana calls, Ben raises to $6.00: Cal to act, the host can take Ben's raise back. */
  const raised = () => actNow(actNow(started(['Ana', 'Ben', 'Cal']), 'CALL'), 'RAISE', 600);
  const ask = () => {
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    return screen.getByRole('dialog', { name: 'Undo?' });
  };

  it('closes when a player acts before it is answered (nothing sent); asked again, it names the new move', async () => {
    const room = raised();
    const send = vi.fn(async (_c: Command) => ok);
    const view = table('ana', send);
    const { rerender } = render(view(room, 10));
    expect(within(ask()).getByText('Take back “Ben raises to $6.00”?')).toBeTruthy();
    const called = actNow(room, 'CALL'); // Cal calls from his phone
    rerender(view(called, 11));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(send).not.toHaveBeenCalled();

    const again = ask();
    expect(within(again).getByText('Take back “Cal calls $4.00”?')).toBeTruthy();
    await act(async () => fireEvent.click(within(again).getByRole('button', { name: 'Undo' })));
    expect(send).toHaveBeenCalledExactlyOnceWith({ type: 'undo', seq: called.undo!.seq });
    expect(called.undo!.seq).toBeGreaterThan(room.undo!.seq);
  });

  it("closes when the host's other tab undid the same move (nothing sent)", () => {
    const room = raised();
    const send = vi.fn(async (_c: Command) => ok);
    const view = table('ana', send);
    const { rerender } = render(view(room, 10));
    ask();
    rerender(view(step(room, 'ana', { type: 'undo', seq: room.undo!.seq }), 11));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('button', { name: 'Undo' }).hasAttribute('disabled')).toBe(true);
    expect(send).not.toHaveBeenCalled();
  });

  it('stays open while its undo is on the way, a move crossing it: the refusal is read, not lost with the dialog', async () => {
    const room = raised();
    const { send, answer } = deferredSend();
    const view = table('ana', send);
    const { rerender } = render(view(room, 10));
    const dialog = ask();
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Undo' })));
    expect(within(dialog).getByRole('button', { name: 'Undoing...' })).toHaveProperty('disabled', true);
    // Cal's call reached the server first.
    rerender(view(actNow(room, 'CALL'), 11));
    await answer({ ok: false, error: 'The table has moved on since. Nothing was undone.' });
    expect(screen.getByRole('dialog', { name: 'Undo?' })).toBe(dialog);
    expect(within(dialog).getByRole('alert').textContent).toBe(
      'The table has moved on since. Nothing was undone.',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(send).toHaveBeenCalledExactlyOnceWith({ type: 'undo', seq: room.undo!.seq });
  });

  it("closes once the room shows its undo done, though the answer was lost ('No connection…')", async () => {
    const room = raised();
    const { send, answer } = deferredSend();
    const view = table('ana', send);
    const { rerender } = render(view(room, 10));
    const dialog = ask();
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Undo' })));
    await answer({ ok: false, error: 'No connection right now. Please try again in a moment.' });
    expect(within(dialog).getByRole('alert').textContent).toBe(
      'No connection right now. Please try again in a moment.',
    );
    // Back online: the room shows the server did it.
    rerender(view(step(room, 'ana', { type: 'undo', seq: room.undo!.seq }), 11));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(send).toHaveBeenCalledOnce();
  });
});

describe('Lobby: the host has a dialog open when another phone changes the room', () => {
  const view = (room: Room, version: number, send: (c: Command) => Promise<Ack<unknown>>) => (
    <Lobby snapshot={at(room, version)} me="ana" send={send} onLeave={async () => ok} />
  );

  it('Remove: the confirmation closes when that player has left meanwhile (nothing sent)', () => {
    const room = lobby(['Ana', 'Ben', 'Cal']);
    const send = vi.fn(async (_c: Command) => ok);
    const { rerender } = render(view(room, 3, send));
    fireEvent.click(screen.getByRole('button', { name: 'Remove Ben' }));
    expect(screen.getByRole('dialog', { name: 'Remove this player from the game?' })).toBeTruthy();
    rerender(view(step(room, 'ben', { type: 'leave' }), 4, send));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(send).not.toHaveBeenCalled();
  });

  it('Settings: blinds saved from another tab show in the open dialog; a field being edited keeps its text', async () => {
    const room = lobby(['Ana', 'Ben']);
    const send = vi.fn(async (_c: Command) => ok);
    const { rerender } = render(view(room, 3, send));
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    const dialog = screen.getByRole('dialog', { name: 'Game Settings' });
    expect(within(dialog).getByLabelText('Small Blind')).toHaveProperty('value', '1.00');
    // The host's other tab saves $0.25 / $0.50.
    const saved = step(room, 'ana', { type: 'updateSettings', smallBlind: 25, bigBlind: 50 });
    rerender(view(saved, 4, send));
    expect(within(dialog).getByLabelText('Small Blind')).toHaveProperty('value', '0.25');
    expect(within(dialog).getByLabelText('Big Blind')).toHaveProperty('value', '0.50');
    // Typed here, then another save elsewhere: what was typed stays, the untouched field follows.
    fireEvent.change(within(dialog).getByLabelText('Big Blind'), { target: { value: '3' } });
    rerender(view(step(saved, 'ana', { type: 'updateSettings', smallBlind: 50, bigBlind: 100 }), 5, send));
    expect(within(dialog).getByLabelText('Small Blind')).toHaveProperty('value', '0.50');
    expect(within(dialog).getByLabelText('Big Blind')).toHaveProperty('value', '3');
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Save Settings' })));
    expect(send).toHaveBeenCalledExactlyOnceWith({ type: 'updateSettings', smallBlind: 50, bigBlind: 300 });
  });
});

/** A `send` whose answers the test gives, one at a time. */
function deferredSend() {
  const answers: Array<(a: Ack<unknown>) => void> = [];
  const send = vi.fn(
    (_c: Command) =>
      new Promise<Ack<unknown>>((resolve) => {
        answers.push(resolve);
      }),
  );
  const answer = (a: Ack<unknown>) => act(async () => answers.shift()!(a));
  return { send, answer };
}

describe('a refusal that answers a room which has moved on meanwhile is not shown', () => {
  it("Declare Winner: a ticked player leaves while 'Declaring...': no 'Player … is not in this hand', the dialog can award again", async () => {
    const room = threeWayShowdown();
    const { send, answer } = deferredSend();
    const view = table('ana', send);
    const { rerender } = render(view(room, 10));
    fireEvent.click(screen.getByRole('button', { name: 'Declare Winner' }));
    const dialog = screen.getByRole('dialog', { name: 'Declare Winner' });
    fireEvent.click(within(dialog).getByLabelText('Ben'));
    fireEvent.click(within(dialog).getByLabelText('Cal'));
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Award Split Pot' })));
    expect(within(dialog).getByRole('button', { name: 'Declaring...' })).toHaveProperty('disabled', true);
    // The server took Cal's leave first (its broadcast comes before the refusal).
    rerender(view(step(room, 'cal', { type: 'leave' }), 11));
    await answer({ ok: false, error: 'Player cal is not in this hand' });
    expect(within(dialog).queryByRole('alert')).toBeNull();
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Award Pot' })));
    expect(send).toHaveBeenLastCalledWith({ type: 'declareWinners', winnerIds: ['ben'] });
  });

  it('Lobby: Approve for a player who left as it was tapped says nothing once the row is gone', async () => {
    const room = lobby(['Ana', 'Ben', 'Cal', 'Dee'], { pending: ['Cal', 'Dee'] });
    const { send, answer } = deferredSend();
    const view = (r: Room, version: number) => (
      <Lobby snapshot={at(r, version)} me="ana" send={send} onLeave={async () => ok} />
    );
    const { rerender } = render(view(room, 5));
    fireEvent.click(screen.getByRole('button', { name: 'Approve Cal' }));
    rerender(view(step(room, 'cal', { type: 'leave' }), 6));
    await answer({ ok: false, error: 'Selected player not found' });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('button', { name: 'Approve Dee' })).toHaveProperty('disabled', false);
  });

  it('Lobby: a refused start stays while the room is the same and goes once it has changed', async () => {
    const room = lobby(['Ana', 'Ben']);
    const send = vi.fn(
      async (_c: Command) => ({ ok: false, error: 'Need at least 2 players to start the game' }) as const,
    );
    const view = (r: Room, version: number) => (
      <Lobby snapshot={at(r, version)} me="ana" send={send} onLeave={async () => ok} />
    );
    const { rerender } = render(view(room, 5));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Start Game' })));
    expect(screen.getByRole('alert').textContent).toBe('Need at least 2 players to start the game');
    rerender(view(room, 5));
    expect(screen.getByRole('alert').textContent).toBe('Need at least 2 players to start the game');
    // Cal joins and is approved: two players again, and the old refusal no longer says anything true.
    let next = step(room, 'cal', { type: 'join', name: 'Cal', startingChips: 5_000 });
    next = step(next, 'ana', { type: 'approve', playerId: 'cal' });
    rerender(view(next, 7));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('button', { name: 'Start Game' })).toHaveProperty('disabled', false);
  });
});

describe('Table: a dialog closed by the broadcast before its own answer arrives', () => {
  // The server broadcasts the new room, then answers the command. The broadcast closes the dialog
  // (Award: the pot is paid; Rebuy: its rebuy is in the log) and the host may already have opened the
  // next one when the answer comes: that late answer must not close the dialog opened since (found by a
  // seven-phone night in a real browser: the rebuy for the next bust player closed under the host's thumb).
  it('Declare Winner answered after its broadcast, with Rebuys opened meanwhile: Rebuys stays open', async () => {
    const room = threeWayShowdown();
    let answer: (a: Ack<unknown>) => void = () => {};
    const send = vi.fn((_c: Command) => new Promise<Ack<unknown>>((resolve) => (answer = resolve)));
    const view = table('ana', send);
    const { rerender } = render(view(room, 10));
    fireEvent.click(screen.getByRole('button', { name: 'Declare Winner' }));
    const dialog = screen.getByRole('dialog', { name: 'Declare Winner' });
    fireEvent.click(within(dialog).getByLabelText('Ben'));
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Award Pot' })));
    expect(send).toHaveBeenCalledTimes(1);
    // The broadcast: the pot is Ben's, the dialog closes.
    rerender(view(step(room, 'ana', { type: 'declareWinners', winnerIds: ['ben'] }), 11));
    expect(screen.queryByRole('dialog', { name: 'Declare Winner' })).toBeNull();
    // The host opens Rebuys; then the award's answer arrives.
    fireEvent.click(screen.getByRole('button', { name: 'Rebuys' }));
    expect(screen.getByRole('dialog', { name: 'Player Rebuy' })).toBeTruthy();
    await act(async () => answer(ok));
    expect(screen.queryByRole('dialog', { name: 'Player Rebuy' })).not.toBeNull();
  });

  it('Rebuy answered after its broadcast, with Rebuys opened again meanwhile: the new one stays open', async () => {
    const room = threeWayShowdown();
    const paid = step(room, 'ana', { type: 'declareWinners', winnerIds: ['ana'] });
    let answer: (a: Ack<unknown>) => void = () => {};
    const send = vi.fn((_c: Command) => new Promise<Ack<unknown>>((resolve) => (answer = resolve)));
    const view = table('ana', send);
    const { rerender } = render(view(paid, 10));
    fireEvent.click(screen.getByRole('button', { name: 'Rebuys' }));
    const first = screen.getByRole('dialog', { name: 'Player Rebuy' });
    fireEvent.change(within(first).getByLabelText('Player'), { target: { value: 'ben' } });
    fireEvent.change(within(first).getByLabelText('Rebuy Amount'), { target: { value: '10' } });
    await act(async () => fireEvent.click(within(first).getByRole('button', { name: 'Add Chips' })));
    expect(send).toHaveBeenCalledTimes(1);
    // The broadcast carries the rebuy: the dialog is done and closes.
    rerender(view(step(paid, 'ana', { type: 'rebuy', playerId: 'ben', amount: 1_000 }), 11));
    expect(screen.queryByRole('dialog', { name: 'Player Rebuy' })).toBeNull();
    // The host opens it again for the next player; then the first rebuy's answer arrives.
    fireEvent.click(screen.getByRole('button', { name: 'Rebuys' }));
    expect(screen.getByRole('dialog', { name: 'Player Rebuy' })).toBeTruthy();
    await act(async () => answer(ok));
    expect(screen.queryByRole('dialog', { name: 'Player Rebuy' })).not.toBeNull();
  });
});

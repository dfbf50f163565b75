import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Command, Room } from '../../engine/types';
import type { Ack } from '../../shared/protocol';
import { actNow, lobby, snapshot, started, step } from '../test/rooms';
import { showTable } from '../test/table';
import { Lobby } from './Lobby';

afterEach(cleanup);

const ok: Ack<null> = { ok: true, data: null };

function showLobby(room: Room, me: string, answer: Ack<unknown> = ok) {
  const send = vi.fn(async (_c: Command) => answer);
  const view = (r: Room) => (
    <Lobby
      snapshot={snapshot(r)}
      me={me}
      send={send}
      onLeave={async () => ok}
      origin="https://chipless.test"
    />
  );
  const utils = render(view(room));
  return { send, update: (r: Room) => utils.rerender(view(r)) };
}

const open = () => {
  fireEvent.click(screen.getByRole('button', { name: 'Arrange Seats' }));
  return screen.getByRole('dialog', { name: 'Arrange Seats' });
};
const rows = (dialog: HTMLElement) =>
  within(dialog)
    .getAllByRole('listitem')
    .map((li) => li.textContent);
const press = (dialog: HTMLElement, name: string) =>
  fireEvent.click(within(dialog).getByRole('button', { name }));

describe('Arrange Seats: the host puts the players in the order they sit', () => {
  it('lobby: moves players up and down, says where they went, and sends the order; the first deals first', async () => {
    const { send } = showLobby(lobby(['Ana', 'Ben', 'Cal', 'Dee']), 'ana');
    const dialog = open();
    expect(dialog.textContent).toContain(
      'Put the players in the order they sit around the table, going clockwise (to the left). The first player deals the first hand.',
    );
    expect(rows(dialog)).toEqual(['1Ana Deals first', '2Ben', '3Cal', '4Dee']);
    press(dialog, 'Move Dee up');
    press(dialog, 'Move Dee up');
    expect(rows(dialog)).toEqual(['1Ana Deals first', '2Dee', '3Ben', '4Cal']);
    expect(within(dialog).getByRole('status').textContent).toBe('Dee is now in seat 2');
    press(dialog, 'Move Ana down');
    expect(rows(dialog)).toEqual(['1Dee Deals first', '2Ana', '3Ben', '4Cal']);
    // At the ends the buttons say they cannot move further, and do nothing.
    const top = within(dialog).getByRole('button', { name: 'Move Dee up' });
    expect(top.getAttribute('aria-disabled')).toBe('true');
    expect(within(dialog).getByRole('button', { name: 'Move Cal down' }).getAttribute('aria-disabled')).toBe(
      'true',
    );
    press(dialog, 'Move Dee up');
    press(dialog, 'Move Cal down');
    expect(rows(dialog)).toEqual(['1Dee Deals first', '2Ana', '3Ben', '4Cal']);
    expect(send).not.toHaveBeenCalled();
    await act(async () => press(dialog, 'Save Seats'));
    expect(send).toHaveBeenCalledTimes(1);
    expect(send).toHaveBeenLastCalledWith({ type: 'arrangeSeats', playerIds: ['dee', 'ana', 'ben', 'cal'] });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('the focus stays on a moved player’s button, even when it reaches the end', () => {
    showLobby(lobby(['Ana', 'Ben', 'Cal']), 'ana');
    const dialog = open();
    const up = within(dialog).getByRole('button', { name: 'Move Cal up' });
    up.focus();
    fireEvent.click(up);
    fireEvent.click(up);
    expect(rows(dialog)).toEqual(['1Cal Deals first', '2Ana', '3Ben']);
    expect(document.activeElement).toBe(up);
  });

  it('the lobby list is the seat order: after the change every phone shows it', () => {
    const room = step(lobby(['Ana', 'Ben', 'Cal']), 'ana', {
      type: 'arrangeSeats',
      playerIds: ['ana', 'cal', 'ben'],
    });
    showLobby(room, 'ben');
    const section = screen.getByRole('heading', { name: /^Players/ }).closest('section')!;
    expect(
      within(section)
        .getAllByRole('listitem')
        .map((li) => li.querySelector('.player-name')!.firstChild!.textContent),
    ).toEqual(['Ana', 'Cal', 'Ben']);
    // Only the host arranges.
    expect(screen.queryByRole('button', { name: 'Arrange Seats' })).toBeNull();
  });

  it('someone joins or leaves while the dialog is open: the host’s order stays, newcomers go last', () => {
    const room = lobby(['Ana', 'Ben', 'Cal']);
    const { update } = showLobby(room, 'ana');
    const dialog = open();
    press(dialog, 'Move Cal up');
    expect(rows(dialog)).toEqual(['1Ana Deals first', '2Cal', '3Ben']);
    let next = step(room, 'dee', { type: 'join', name: 'Dee', startingChips: 5_000 });
    update(next);
    // Waiting for approval: not at the table yet.
    expect(rows(dialog)).toEqual(['1Ana Deals first', '2Cal', '3Ben']);
    next = step(next, 'ana', { type: 'approve', playerId: 'dee' });
    next = step(next, 'ben', { type: 'leave' });
    update(next);
    expect(rows(dialog)).toEqual(['1Ana Deals first', '2Cal', '3Dee']);
  });

  it('a refusal shows in the dialog, which stays open', async () => {
    const refusal = { ok: false, error: 'The players at the table have changed. Please try again.' } as const;
    showLobby(lobby(['Ana', 'Ben']), 'ana', refusal);
    const dialog = open();
    press(dialog, 'Move Ben up');
    await act(async () => press(dialog, 'Save Seats'));
    expect(within(dialog).getByRole('alert').textContent).toBe(
      'The players at the table have changed. Please try again.',
    );
    expect(screen.getByRole('dialog', { name: 'Arrange Seats' })).toBeTruthy();
  });

  it('no Arrange Seats with fewer than two players at the table', () => {
    showLobby(lobby(['Ana', 'Ben'], { pending: ['Ben'] }), 'ana');
    expect(screen.queryByRole('button', { name: 'Arrange Seats' })).toBeNull();
  });

  it('table: offered between hands only, the dealer marked; it closes when the next hand is dealt', async () => {
    // Ana deals, Ben SB, Cal BB; Ana and Ben fold: Cal wins the blinds, the hand is over.
    let room = started(['Ana', 'Ben', 'Cal']);
    const { send, update } = showTable(room, 'ana');
    expect(screen.queryByRole('button', { name: 'Arrange Seats' })).toBeNull();
    room = actNow(room, 'FOLD');
    room = actNow(room, 'FOLD');
    update(room);
    const dialog = open();
    expect(dialog.textContent).toContain("The next hand's button goes to the player after the dealer.");
    expect(rows(dialog)).toEqual(['1Ana Dealer', '2Ben', '3Cal']);
    press(dialog, 'Move Cal up');
    await act(async () => press(dialog, 'Save Seats'));
    expect(send).toHaveBeenLastCalledWith({ type: 'arrangeSeats', playerIds: ['ana', 'cal', 'ben'] });
    // Opened again, and the host's other tab deals the next hand: the question is gone.
    open();
    update(step(room, 'ana', { type: 'newHand' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Arrange Seats' })).toBeNull();
  });

  it('table: a player never sees it', () => {
    let room = started(['Ana', 'Ben', 'Cal']);
    room = actNow(room, 'FOLD');
    room = actNow(room, 'FOLD');
    showTable(room, 'ben');
    expect(screen.queryByRole('button', { name: 'Arrange Seats' })).toBeNull();
  });
});

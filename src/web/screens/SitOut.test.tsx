import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { actNow, started, step } from '../test/rooms';
import { showTable } from '../test/table';

afterEach(cleanup);

const seatTags = (name: string) =>
  Array.from(
    screen
      .getAllByRole('listitem')
      .find(
        (li) =>
          li.classList.contains('seat') && li.querySelector('.player-name')?.textContent?.startsWith(name),
      )!
      .querySelectorAll('.seat-numbers .tag'),
  ).map((tag) => tag.textContent);

/** What the dock's live region (always there, so a change is read out) says of sitting out. */
const liveAway = () => document.querySelector('.turn-status .sr-only')?.textContent ?? '';

/** Ana deals, Ben SB, Cal BB; Ana and Ben fold: Cal wins, the hand is over. */
const handOver = () => {
  let room = started(['Ana', 'Ben', 'Cal']);
  room = actNow(room, 'FOLD');
  return actNow(room, 'FOLD');
};

describe('Table: sitting out (a player steps away for a while)', () => {
  it('the leave dialog offers Sit Out Instead, which keeps the seat', async () => {
    const { send } = showTable(started(['Ana', 'Ben', 'Cal']), 'ben');
    fireEvent.click(screen.getByRole('button', { name: 'Leave game' }));
    const dialog = screen.getByRole('dialog', { name: 'Leave this game?' });
    expect(dialog.textContent).toContain(
      'Your chips at this moment stay in the final results. You can see them from the home screen once the host ends the game. Only stepping away for a while? Sit out: you keep your seat and chips, and are dealt out until you are back.',
    );
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Sit Out Instead' })));
    expect(send).toHaveBeenCalledTimes(1);
    expect(send).toHaveBeenLastCalledWith({ type: 'sitOut', away: true });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('a phone holding the seat by a link: the leave dialog offers Give This Phone Back, which sends nothing', async () => {
    const handBack = vi.fn();
    const { send } = showTable(started(['Ana', 'Ben', 'Cal']), 'ben', [], undefined, undefined, handBack);
    fireEvent.click(screen.getByRole('button', { name: 'Leave game' }));
    const dialog = screen.getByRole('dialog', { name: 'Leave this game?' });
    expect(dialog.textContent).toContain(
      'Your chips at this moment stay in the final results. You can see them from the home screen once the host ends the game. This phone holds your seat by a link. Only giving the phone back? Your seat and chips stay at the table for your own phone, or a new link from the host.',
    );
    expect(within(dialog).queryByRole('button', { name: 'Sit Out Instead' })).toBeNull();
    await act(async () =>
      fireEvent.click(within(dialog).getByRole('button', { name: 'Give This Phone Back' })),
    );
    expect(handBack).toHaveBeenCalledTimes(1);
    expect(send).not.toHaveBeenCalled();
  });

  it('a player still waiting for approval is not told of chips or results when leaving', () => {
    const room = step(started(['Ana', 'Ben', 'Cal']), 'dee', {
      type: 'join',
      name: 'Dee',
      startingChips: 5_000,
    });
    showTable(room, 'dee');
    fireEvent.click(screen.getByRole('button', { name: 'Leave game' }));
    const dialog = screen.getByRole('dialog', { name: 'Leave this game?' });
    expect(dialog.textContent).toContain('You are still waiting for the host to approve you.');
    expect(dialog.textContent).not.toContain('final results');
    expect(within(dialog).queryByRole('button', { name: 'Sit Out Instead' })).toBeNull();
  });

  it("sitting out: 'Sits out next hand' on the seat while in this hand, then 'Sitting out'; I'm Back brings the player back", async () => {
    let room = step(started(['Ana', 'Ben', 'Cal']), 'ben', { type: 'sitOut', away: true });
    const { send, update } = showTable(room, 'ben');
    expect(seatTags('Ben')).toEqual(['Sits out next hand']);
    // Still in this hand: the dock says what sitting out does from here, and Stay In undoes it.
    const away = screen.getByRole('region', { name: 'You sit out from the next hand' });
    expect(away.textContent).toBe('You sit out from the next handStay In');
    expect(liveAway()).toBe('You sit out from the next hand');
    // Leaving now offers nothing more to sit out.
    fireEvent.click(screen.getByRole('button', { name: 'Leave game' }));
    const dialog = screen.getByRole('dialog', { name: 'Leave this game?' });
    expect(within(dialog).queryByRole('button', { name: 'Sit Out Instead' })).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    // Ana folds, Ben folds his hand on the way out; Cal wins. The next hand is dealt without Ben.
    room = actNow(room, 'FOLD');
    room = actNow(room, 'FOLD');
    update(room);
    // Between hands, folded: still marked, the table sees who the next deal leaves out.
    expect(seatTags('Ben')).toEqual(['Folded', 'Sitting out']);
    room = step(room, 'ana', { type: 'newHand' });
    update(room);
    expect(seatTags('Ben')).toEqual(['Sitting out']);
    expect(screen.queryByRole('region', { name: 'Your Turn' })).toBeNull();
    const out = screen.getByRole('region', { name: "You're sitting out" });
    expect(out.textContent).toBe("You're sitting outI'm Back");
    expect(liveAway()).toBe("You're sitting out");
    await act(async () => fireEvent.click(within(out).getByRole('button')));
    expect(send).toHaveBeenLastCalledWith({ type: 'sitOut', away: false });
    update(step(room, 'ben', { type: 'sitOut', away: false }));
    expect(screen.queryByRole('region', { name: "You're sitting out" })).toBeNull();
    expect(liveAway()).toBe('');
    expect(seatTags('Ben')).toEqual(['Joins next hand']);
  });

  it('seat tags of players the hand was dealt without: out of chips, seated after the deal', () => {
    // Ana deals, Ben SB, Cal BB. Ana goes all-in, Ben folds, Cal calls all-in; Ana wins: Cal has $0.00.
    let room = started(['Ana', 'Ben', 'Cal']);
    room = actNow(room, 'ALL_IN');
    room = actNow(room, 'FOLD');
    room = actNow(room, 'CALL');
    room = step(room, 'dan', { type: 'join', name: 'Dan', startingChips: 2_000 });
    room = step(room, 'ana', { type: 'approve', playerId: 'dan' });
    // At the showdown, before the award, Cal's all-in may still win: no tag yet.
    showTable(room, 'ana');
    expect(seatTags('Cal')).toEqual(['All-In']);
    cleanup();
    room = step(room, 'ana', { type: 'declareWinners', winnerIds: ['ana'] });
    // As soon as the pot is awarded: the host sees who needs a rebuy before dealing.
    showTable(room, 'ana');
    expect(seatTags('Cal')).toEqual(['Out of chips']);
    cleanup();
    room = step(room, 'ana', { type: 'newHand' });
    showTable(room, 'ana');
    expect(seatTags('Cal')).toEqual(['Out of chips']);
    expect(seatTags('Dan')).toEqual([]);
    expect(seatTags('Ana')).toEqual([]);
    // Rebought during a hand: dealt in from the next one.
    cleanup();
    showTable(step(room, 'ana', { type: 'rebuy', playerId: 'cal', amount: 1_000 }), 'ana');
    expect(seatTags('Cal')).toEqual(['Joins next hand']);
  });

  it('the host: Sit Out Instead in the remove dialog, for a player not already sitting out', async () => {
    const room = started(['Ana', 'Ben', 'Cal']);
    const { send, update } = showTable(room, 'ana');
    fireEvent.click(screen.getByRole('button', { name: 'Remove Cal' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove this player from the game?' });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Sit Out Instead' })));
    expect(send).toHaveBeenLastCalledWith({ type: 'sitOut', away: true, playerId: 'cal' });
    update(step(room, 'ana', { type: 'sitOut', away: true, playerId: 'cal' }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove Cal' }));
    expect(
      within(screen.getByRole('dialog', { name: 'Remove this player from the game?' })).queryByRole(
        'button',
        {
          name: 'Sit Out Instead',
        },
      ),
    ).toBeNull();
  });

  it('the host brings back a player sitting out (a phone gone flat) from the remove dialog', async () => {
    const room = step(handOver(), 'ana', { type: 'sitOut', away: true, playerId: 'cal' });
    const { send } = showTable(room, 'ana');
    fireEvent.click(screen.getByRole('button', { name: 'Remove Cal' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove this player from the game?' });
    expect(dialog.textContent).toContain(
      'Cal is sitting out. Back at the table? Bring them back: they are dealt in from the next hand.',
    );
    expect(within(dialog).queryByRole('button', { name: 'Sit Out Instead' })).toBeNull();
    await act(async () =>
      fireEvent.click(within(dialog).getByRole('button', { name: 'Bring Back Instead' })),
    );
    expect(send).toHaveBeenLastCalledWith({ type: 'sitOut', away: false, playerId: 'cal' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('the open remove dialog follows the player sitting out from their own phone', () => {
    const room = started(['Ana', 'Ben', 'Cal']);
    const { update } = showTable(room, 'ana');
    fireEvent.click(screen.getByRole('button', { name: 'Remove Cal' }));
    const dialog = () => screen.getByRole('dialog', { name: 'Remove this player from the game?' });
    expect(dialog().textContent).toContain(
      'Cal. Removing them folds their hand: $1.00 of the $2.00 they have bet stays in the pot, and the rest goes back to them. Only stepping away for a while? Sit them out: they keep their seat and chips.',
    );
    update(step(room, 'cal', { type: 'sitOut', away: true }));
    // Cal (the big blind) is still in this hand.
    expect(dialog().textContent).toContain(
      'Cal sits out from the next hand. Staying after all? Bring them back: they are dealt in as before.',
    );
    expect(within(dialog()).queryByRole('button', { name: 'Sit Out Instead' })).toBeNull();
    expect(within(dialog()).getByRole('button', { name: 'Bring Back Instead' })).toBeTruthy();
  });

  it('a player with no chips who is not in the hand is not offered to sit out (there is nothing to keep)', () => {
    // Ana deals, Ben SB, Cal BB. Ana goes all-in, Ben folds, Cal calls all-in; Ana wins: Cal has $0.00.
    let room = started(['Ana', 'Ben', 'Cal']);
    room = actNow(room, 'ALL_IN');
    room = actNow(room, 'FOLD');
    room = actNow(room, 'CALL');
    room = step(room, 'ana', { type: 'declareWinners', winnerIds: ['ana'] });
    showTable(room, 'cal');
    fireEvent.click(screen.getByRole('button', { name: 'Leave game' }));
    const leave = screen.getByRole('dialog', { name: 'Leave this game?' });
    expect(leave.textContent).not.toContain('Sit out');
    expect(within(leave).queryByRole('button', { name: 'Sit Out Instead' })).toBeNull();
    cleanup();
    showTable(room, 'ana');
    fireEvent.click(screen.getByRole('button', { name: 'Remove Cal' }));
    const remove = screen.getByRole('dialog', { name: 'Remove this player from the game?' });
    expect(remove.textContent).toContain('Cal');
    expect(within(remove).queryByRole('button', { name: /Instead/ })).toBeNull();
  });

  it('with one player left who is not sitting out: no New Hand, and the host is told why', () => {
    let room = handOver();
    room = step(room, 'ben', { type: 'sitOut', away: true });
    room = step(room, 'ana', { type: 'sitOut', away: true, playerId: 'cal' });
    showTable(room, 'ana');
    const banner = screen.getAllByRole('status').find((s) => s.classList.contains('warning'))!;
    expect(banner.textContent).toBe(
      'Only 1 player is inThe others are sitting out or out of chips. Bring a player back (the button on their seat), rebuy or End Game to continue.',
    );
    expect(screen.queryByRole('button', { name: 'New Hand' })).toBeNull();
  });

  it('with nobody left who is not sitting out, the banner says so', () => {
    let room = handOver();
    for (const id of ['ana', 'ben', 'cal']) room = step(room, id, { type: 'sitOut', away: true });
    showTable(room, 'ben');
    const banner = screen.getAllByRole('status').find((s) => s.classList.contains('warning'))!;
    expect(banner.textContent).toBe(
      'Nobody is inEveryone is sitting out or out of chips. Bring a player back, rebuy or End Game to continue.',
    );
  });

  it('the hand log says who sat out and who is back', () => {
    let room = step(handOver(), 'ben', { type: 'sitOut', away: true });
    room = step(room, 'ana', { type: 'sitOut', away: false, playerId: 'ben' });
    showTable(room, 'cal');
    const lines = Array.from(document.querySelectorAll('.hand-log li')).map((li) => li.textContent);
    expect(lines.slice(0, 2)).toEqual(['Ben is back (by the host)', 'Ben sits out']);
  });
});

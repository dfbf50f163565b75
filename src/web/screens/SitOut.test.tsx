import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
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
      'Your chips at this moment stay in the final results. Only stepping away for a while? Sit out: you keep your seat and chips, and are dealt out until you are back.',
    );
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Sit Out Instead' })));
    expect(send).toHaveBeenCalledTimes(1);
    expect(send).toHaveBeenLastCalledWith({ type: 'sitOut', away: true });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("sitting out: 'Sits out next hand' on the seat while in this hand, then 'Sitting out'; I'm Back brings the player back", async () => {
    let room = step(started(['Ana', 'Ben', 'Cal']), 'ben', { type: 'sitOut', away: true });
    const { send, update } = showTable(room, 'ben');
    expect(seatTags('Ben')).toEqual(['Sits out next hand']);
    const away = screen.getByRole('region', { name: "You're sitting out" });
    expect(away.textContent).toBe("You're sitting outI'm Back");
    // Leaving now offers nothing more to sit out.
    fireEvent.click(screen.getByRole('button', { name: 'Leave game' }));
    const dialog = screen.getByRole('dialog', { name: 'Leave this game?' });
    expect(within(dialog).queryByRole('button', { name: 'Sit Out Instead' })).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    // Ana folds, Ben folds his hand on the way out; Cal wins. The next hand is dealt without Ben.
    room = actNow(room, 'FOLD');
    room = actNow(room, 'FOLD');
    room = step(room, 'ana', { type: 'newHand' });
    update(room);
    expect(seatTags('Ben')).toEqual(['Sitting out']);
    expect(screen.queryByRole('region', { name: 'Your Turn' })).toBeNull();
    await act(async () =>
      fireEvent.click(within(screen.getByRole('region', { name: "You're sitting out" })).getByRole('button')),
    );
    expect(send).toHaveBeenLastCalledWith({ type: 'sitOut', away: false });
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

  it('with one player left who is not sitting out: no New Hand, and the host is told why', () => {
    let room = handOver();
    room = step(room, 'ben', { type: 'sitOut', away: true });
    room = step(room, 'ana', { type: 'sitOut', away: true, playerId: 'cal' });
    showTable(room, 'ana');
    const banner = screen.getAllByRole('status').find((s) => s.classList.contains('warning'))!;
    expect(banner.textContent).toBe(
      'Only 1 player is inThe others are sitting out or out of chips. Bring a player back, rebuy or End Game to continue.',
    );
    expect(screen.queryByRole('button', { name: 'New Hand' })).toBeNull();
  });

  it('the hand log says who sat out and who is back', () => {
    let room = step(handOver(), 'ben', { type: 'sitOut', away: true });
    room = step(room, 'ana', { type: 'sitOut', away: false, playerId: 'ben' });
    showTable(room, 'cal');
    const lines = Array.from(document.querySelectorAll('.hand-log li')).map((li) => li.textContent);
    expect(lines.slice(0, 2)).toEqual(['Ben is back (by the host)', 'Ben sits out']);
  });
});

/**
 * What the leave, remove and End Game questions say of the chips in the hand being played (the audit
 * of session 33: they said nothing, and leaving folds what a player has in the pot, while End Game
 * gives every chip of the unfinished hand back).
 */
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Room } from '../../engine/types';
import { actNow, started, step } from '../test/rooms';
import { showTable } from '../test/table';

afterEach(cleanup);

/**
 * Blinds $1/$2. Ana deals ($100), Ben SB ($50), Cal BB ($10), Dee ($100). Dee all-in for $100, Ana
 * folds, Ben all-in for $50; Cal ($10 at most) to act. Nobody left can call more than $50 of Dee's $100.
 */
function uncallable(): Room {
  let room = started(['Ana', 'Ben', 'Cal', 'Dee'], {
    chips: { Ana: 10_000, Ben: 5_000, Cal: 1_000, Dee: 10_000 },
  });
  room = actNow(room, 'ALL_IN'); // Dee
  room = actNow(room, 'FOLD'); // Ana
  return actNow(room, 'ALL_IN'); // Ben
}

const open = (button: string, title: string) => {
  fireEvent.click(screen.getByRole('button', { name: button }));
  return screen.getByRole('dialog', { name: title }).textContent ?? '';
};

describe('the questions say what happens to the chips in the pot', () => {
  it('leaving: what stays in the pot, and that the part nobody matched comes back', () => {
    showTable(uncallable(), 'dee');
    expect(open('Leave game', 'Leave this game?')).toContain(
      'Leaving folds your hand: $50.00 of the $100.00 you have bet stays in the pot, and the rest comes back to you. Your chips at this moment stay in the final results.',
    );
    cleanup();
    // Ben's $50.00 all-in: Dee matched all of it.
    showTable(uncallable(), 'ben');
    expect(open('Leave game', 'Leave this game?')).toContain(
      'Leaving folds your hand: the $50.00 you have bet stays in the pot. Your chips at this moment',
    );
  });

  it('leaving with nothing in the pot, or folded, says nothing of it', () => {
    // Cal folds his big blind: leaving changes nothing in the pot.
    showTable(actNow(uncallable(), 'FOLD'), 'cal');
    expect(open('Leave game', 'Leave this game?')).not.toContain('stays in the pot');
  });

  it("the host's remove question at the table says what the player leaves in the pot", () => {
    showTable(uncallable(), 'ana');
    expect(open('Remove Ben', 'Remove this player from the game?')).toContain(
      'Ben. Removing them folds their hand: the $50.00 they have bet stays in the pot.',
    );
    cleanup();
    showTable(uncallable(), 'ana');
    expect(open('Remove Dee', 'Remove this player from the game?')).toContain(
      'Dee. Removing them folds their hand: $50.00 of the $100.00 they have bet stays in the pot, and the rest goes back to them.',
    );
  });

  it('End Game during a hand says the hand is called off; after the award it does not', () => {
    const room = uncallable();
    showTable(room, 'ana');
    expect(open('End Game', 'End Game')).toContain(
      'This will show final results and payouts for all players. The hand in play is called off: every chip bet in it goes back to its owner.',
    );
    cleanup();
    const paid = step(actNow(room, 'CALL'), 'ana', { type: 'declareWinners', winnerIds: ['ben'] });
    showTable(paid, 'ana');
    const text = open('End Game', 'End Game');
    expect(text).toContain('This will show final results and payouts for all players.');
    expect(text).not.toContain('called off');
    expect(
      within(screen.getByRole('dialog', { name: 'End Game' })).getByRole('button', {
        name: 'End Game & Auto-Settle Payouts',
      }),
    ).toBeTruthy();
  });
});

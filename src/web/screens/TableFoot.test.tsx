import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { actNow, started, step } from '../test/rooms';
import { showTable } from '../test/table';

afterEach(cleanup);

const foot = () => document.querySelector('.table-foot')!;
const change = () => screen.queryByRole('button', { name: 'Change Blinds' });

/** Ana deals, Ben SB $1.00, Cal BB $2.00; $50.00 each. */
const threeWay = () => started(['Ana', 'Ben', 'Cal']);

describe('Table: the host changes the blinds during the game', () => {
  it("the host's footer offers Change Blinds; the dialog says they apply from the next hand and sends updateSettings", async () => {
    const { send } = showTable(threeWay(), 'ana');
    expect(foot().textContent).toBe('Hand #1Blinds $1.00 / $2.00Change BlindsRoom ABCDE');
    fireEvent.click(change()!);
    const dialog = screen.getByRole('dialog', { name: 'Change Blinds' });
    expect(dialog.textContent).toContain('New blinds apply from the next hand.');
    const small = within(dialog).getByLabelText('Small Blind') as HTMLInputElement;
    const big = within(dialog).getByLabelText('Big Blind') as HTMLInputElement;
    expect([small.value, big.value]).toEqual(['1.00', '2.00']);
    fireEvent.change(small, { target: { value: '2' } });
    fireEvent.change(big, { target: { value: '4.00' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Save Settings' })));
    expect(send).toHaveBeenCalledTimes(1);
    expect(send).toHaveBeenLastCalledWith({ type: 'updateSettings', smallBlind: 200, bigBlind: 400 });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('a player sees the blinds but cannot change them', () => {
    showTable(threeWay(), 'ben');
    expect(foot().textContent).toBe('Hand #1Blinds $1.00 / $2.00Room ABCDE');
    expect(change()).toBeNull();
  });

  it("every phone shows the next hand's blinds until New Hand posts them", () => {
    let room = step(threeWay(), 'ana', { type: 'updateSettings', smallBlind: 200, bigBlind: 400 });
    const { update } = showTable(room, 'ben');
    // The hand on the table keeps its blinds; the new ones are announced for the next.
    expect(foot().textContent).toBe('Hand #1Blinds $1.00 / $2.00Next hand $2.00 / $4.00Room ABCDE');
    expect(document.querySelector('.next-blinds')!.textContent).toBe('Next hand $2.00 / $4.00');
    // Everyone folds to Cal; between hands the change still waits for New Hand.
    room = actNow(room, 'FOLD'); // Ana
    room = actNow(room, 'FOLD'); // Ben
    update(room);
    expect(room.gameState.stage).toBe('SHOWDOWN');
    expect(foot().textContent).toBe('Hand #1Blinds $1.00 / $2.00Next hand $2.00 / $4.00Room ABCDE');
    // Hand 2: Ben deals, Cal posts $2.00, Ana $4.00.
    room = step(room, 'ana', { type: 'newHand' });
    update(room);
    expect(foot().textContent).toBe('Hand #2Blinds $2.00 / $4.00Room ABCDE');
    expect(document.querySelector('.next-blinds')).toBeNull();
    const bets = Object.fromEntries(Object.values(room.players).map((p) => [p.name, p.currentRoundBet]));
    expect(bets).toEqual({ Ana: 400, Ben: 0, Cal: 200 });
  });

  it('a change back to the blinds of the hand on the table announces nothing', () => {
    let room = step(threeWay(), 'ana', { type: 'updateSettings', smallBlind: 200, bigBlind: 400 });
    room = step(room, 'ana', { type: 'updateSettings', smallBlind: 100, bigBlind: 200 });
    showTable(room, 'cal');
    expect(foot().textContent).toBe('Hand #1Blinds $1.00 / $2.00Room ABCDE');
  });

  it('the dialog goes when the host role moves to another phone, and does not come back with it', () => {
    const room = threeWay();
    const { update } = showTable(room, 'ana');
    fireEvent.click(change()!);
    expect(screen.getByRole('dialog', { name: 'Change Blinds' })).toBeTruthy();
    const handedOver = step(room, 'ana', { type: 'makeHost', playerId: 'ben' });
    update(handedOver);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(change()).toBeNull();
    update(step(handedOver, 'ben', { type: 'makeHost', playerId: 'ana' }));
    expect(change()).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('Table: the room code for a friend who arrives late', () => {
  const invite = () => screen.getByRole('button', { name: 'Room ABCDE: invite a friend' });

  it.each([
    ['the host', 'ana'],
    ['a player', 'ben'],
  ])(
    '%s sees the code in the footer; its button opens the invite: code, QR, join link, Copy',
    async (_who, me) => {
      showTable(threeWay(), me);
      // The code is the button's visible text: readable across the table without a tap.
      expect(invite().textContent).toBe('Room ABCDE');
      expect(invite().getAttribute('aria-haspopup')).toBe('dialog');
      fireEvent.click(invite());
      const dialog = screen.getByRole('dialog', { name: 'Invite a Friend' });
      const link = `${location.origin}/?join=ABCDE`;
      expect(dialog.querySelector('.room-code')?.textContent).toBe('ABCDE');
      expect(dialog.textContent).toContain('Share this code with friends');
      expect(
        within(dialog)
          .getByRole('link', { name: link.replace(/^https?:\/\//, '') })
          .getAttribute('href'),
      ).toBe(link);
      expect(within(dialog).getByRole('button', { name: 'Copy Link' })).toBeTruthy();
      expect(await within(dialog).findByRole('img', { name: 'QR code to join room ABCDE' })).toBeTruthy();
      expect(dialog.textContent).toContain(
        'A friend who joins now is dealt in from the next hand, once the host approves them.',
      );
      fireEvent.keyDown(dialog, { key: 'Escape' });
      expect(screen.queryByRole('dialog')).toBeNull();
    },
  );

  it("the invite stays open on a player's phone as the table moves, and as the host role moves", () => {
    let room = threeWay();
    const { update } = showTable(room, 'ben');
    fireEvent.click(invite());
    room = actNow(room, 'CALL'); // Ana
    update(room);
    room = step(room, 'ana', { type: 'makeHost', playerId: 'cal' });
    update(room);
    expect(screen.getByRole('dialog', { name: 'Invite a Friend' })).toBeTruthy();
  });
});

import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MSG } from '../../engine/messages';
import type { Command, Room } from '../../engine/types';
import type { Ack } from '../../shared/protocol';
import { actNow, started } from '../test/rooms';
import { RaiseModal } from './RaiseModal';

afterEach(cleanup);

const ok: Ack<null> = { ok: true, data: null };

function open(room: Room) {
  const turn = room.gameState.currentTurnPlayerId!;
  const send = vi.fn(async (_c: Command) => ok);
  const onClose = vi.fn();
  render(<RaiseModal room={room} playerId={turn} send={send} onClose={onClose} />);
  const dialog = screen.getByRole('dialog', { name: 'Raise' });
  const input = within(dialog).getByLabelText('Total Bet Amount') as HTMLInputElement;
  const preset = (name: string) => within(dialog).getByRole('button', { name: new RegExp(`^${name} `) });
  const confirm = () => fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm Raise' }));
  const typeAmount = (value: string) => fireEvent.change(input, { target: { value } });
  return { dialog, input, preset, confirm, typeAmount, send, onClose };
}

// Three players with $50.00, blinds $1.00/$2.00: Ana deals, Ben posts SB, Cal posts BB, Ana acts first.
const threeWay = () => started(['Ana', 'Ben', 'Cal']);

describe('Raise modal', () => {
  it('shows the current bet, the stack, the min and max from the engine, and the presets', () => {
    const room = threeWay();
    expect(room.gameState.currentTurnPlayerId).toBe('ana');
    const { dialog, input, preset } = open(room);
    expect(within(dialog).getByText('Your current bet').nextElementSibling?.textContent).toBe('$0.00');
    expect(within(dialog).getByText('Your stack').nextElementSibling?.textContent).toBe('$50.00');
    expect(input.value).toBe('4.00');
    expect(dialog.textContent).toContain('Min $4.00 · Max $50.00');
    expect(dialog.textContent).not.toContain("* Limited by opponents' stack sizes");
    expect(preset('Min Raise').textContent).toBe('Min Raise$4.00');
    expect(preset('Min Raise')).toHaveProperty('disabled', false);
    // Pot = own bet $0 + pot $3.00, below the $4.00 minimum: disabled.
    expect(preset('Pot').textContent).toBe('Pot$3.00');
    expect(preset('Pot')).toHaveProperty('disabled', true);
    expect(preset('All-In').textContent).toBe('All-In$50.00');
    expect(preset('All-In')).toHaveProperty('disabled', false);
  });

  it('puts the caret in the amount with a mouse, not on a touch screen (its keyboard would cover the presets)', () => {
    const { input } = open(threeWay());
    expect(document.activeElement).toBe(input);
    cleanup();
    const coarse = vi
      .spyOn(window, 'matchMedia')
      .mockImplementation(
        (query: string) => ({ matches: query === '(pointer: coarse)', media: query }) as MediaQueryList,
      );
    try {
      const { dialog } = open(threeWay());
      expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Close' }));
    } finally {
      coarse.mockRestore();
    }
  });

  it('fills the amount from a preset and sends a RAISE of that total bet', async () => {
    const { input, preset, confirm, send, onClose } = open(threeWay());
    fireEvent.click(preset('All-In'));
    expect(input.value).toBe('50.00');
    fireEvent.click(preset('Min Raise'));
    expect(input.value).toBe('4.00');
    await act(async () => confirm());
    // With what Ana faces: the dialog's raise is refused if the table moved on meanwhile.
    expect(send).toHaveBeenCalledWith({
      type: 'act',
      action: 'RAISE',
      amount: 400,
      facing: { handNumber: 1, stage: 'PRE_FLOP', toCall: 200 },
    });
    expect(onClose).toHaveBeenCalled();
  });

  it('reads a decimal comma as the point (a phone whose decimal key is a comma); refuses any other comma', async () => {
    const { dialog, typeAmount, confirm, send } = open(threeWay());
    typeAmount('4,5');
    await act(async () => confirm());
    expect(send).toHaveBeenCalledWith({
      type: 'act',
      action: 'RAISE',
      amount: 450,
      facing: { handNumber: 1, stage: 'PRE_FLOP', toCall: 200 },
    });
    cleanup();
    const again = open(threeWay());
    again.typeAmount('4,500');
    await act(async () => again.confirm());
    expect(again.send).not.toHaveBeenCalled();
    expect(dialog.isConnected).toBe(false);
    expect(within(again.dialog).getByRole('alert').textContent).toBe(MSG.invalidAmount);
  });

  it('enables the Pot preset once the pot covers the minimum raise', () => {
    // Ana raises to $6.00; Ben (SB, $1.00 in) faces it: pot $9.00, Pot preset $1.00 + $9.00 = $10.00,
    // minimum $6.00 + the last raise $4.00 = $10.00.
    const room = actNow(threeWay(), 'RAISE', 600);
    expect(room.gameState.currentTurnPlayerId).toBe('ben');
    const { dialog, preset } = open(room);
    expect(within(dialog).getByText('Your current bet').nextElementSibling?.textContent).toBe('$1.00');
    expect(within(dialog).getByText('Your stack').nextElementSibling?.textContent).toBe('$49.00');
    expect(dialog.textContent).toContain('Min $10.00 · Max $50.00');
    expect(preset('Pot').textContent).toBe('Pot$10.00');
    expect(preset('Pot')).toHaveProperty('disabled', false);
  });

  it("caps the maximum by the opponents' stacks and says so", async () => {
    const room = started(['Ana', 'Ben', 'Cal'], { chips: { Ana: 10_000, Ben: 3_000, Cal: 5_000 } });
    const { dialog, preset, typeAmount, confirm, send } = open(room);
    expect(dialog.textContent).toContain('Min $4.00 · Max $50.00');
    expect(dialog.textContent).toContain("* Limited by opponents' stack sizes");
    expect(preset('All-In').textContent).toBe('All-In$50.00');

    typeAmount('60');
    confirm();
    expect(screen.getByRole('alert').textContent).toBe(
      "Maximum effective bet is $50.00 based on opponents' stack sizes.",
    );
    typeAmount('150');
    confirm();
    expect(screen.getByRole('alert').textContent).toBe("You don't have enough chips. Maximum bet is $100.00");
    typeAmount('3');
    confirm();
    expect(screen.getByRole('alert').textContent).toBe(
      'Minimum raise is $2.00. Total bet must be at least $4.00',
    );
    typeAmount('ten');
    confirm();
    expect(screen.getByRole('alert').textContent).toBe('Please enter a valid amount (e.g., "25.50")');
    // The amount field is marked wrong and described by the hint and the error line.
    const amount = within(dialog).getByLabelText('Total Bet Amount');
    expect(amount.getAttribute('aria-invalid')).toBe('true');
    expect(amount.getAttribute('aria-describedby')?.split(' ')).toContain(screen.getByRole('alert').id);
    expect(send).not.toHaveBeenCalled();

    typeAmount('$12.50');
    await act(async () => confirm());
    expect(send).toHaveBeenCalledWith({
      type: 'act',
      action: 'RAISE',
      amount: 1250,
      facing: { handNumber: 1, stage: 'PRE_FLOP', toCall: 200 },
    });
  });

  it('lets a short stack go all-in below the minimum raise, and nothing else', async () => {
    // Heads-up, Ben has $3.00 and posts the $2.00 big blind; Ana limps; Ben has $1.00 behind.
    const room = actNow(started(['Ana', 'Ben'], { chips: { Ben: 300 } }), 'CALL');
    expect(room.gameState.currentTurnPlayerId).toBe('ben');
    const { dialog, input, preset, confirm, send } = open(room);
    expect(dialog.textContent).toContain('Min $4.00 · Max $3.00');
    // Ben's own stack is short, not his opponent's: no word of putting anyone all-in.
    expect(dialog.textContent).not.toContain("* Limited by opponents' stack sizes");
    expect(dialog.textContent).not.toContain('puts your opponents all-in');
    expect(input.value).toBe('3.00');
    expect(preset('Min Raise')).toHaveProperty('disabled', true);
    expect(preset('All-In')).toHaveProperty('disabled', false);
    await act(async () => confirm());
    expect(send).toHaveBeenCalledWith({
      type: 'act',
      action: 'RAISE',
      amount: 300,
      facing: { handNumber: 1, stage: 'PRE_FLOP', toCall: 0 },
    });
  });

  it('when the opponents cannot answer a full raise, All-In bets what they can call (their whole stack)', async () => {
    // Heads-up, Ana to act first facing Ben's $2.00 big blind with $1.00 behind: max $3.00 < min $4.00.
    // Before session 30 no raise was offered at all, and Ben saw every card for free.
    const room = started(['Ana', 'Ben'], { chips: { Ben: 300 } });
    const { dialog, input, preset, confirm, send } = open(room);
    expect(dialog.textContent).toContain('Min $4.00 · Max $3.00');
    expect(dialog.textContent).toContain(
      'Less than a full raise puts your opponents all-in: All-In bets what they can call.',
    );
    expect(dialog.textContent).not.toContain('A full raise is not possible');
    expect(preset('Min Raise')).toHaveProperty('disabled', true);
    expect(preset('All-In')).toHaveProperty('disabled', false);
    expect(input.value).toBe('3.00');
    fireEvent.change(input, { target: { value: '2.50' } });
    await act(async () => confirm());
    expect(screen.getByRole('alert').textContent).toBe(
      'Minimum raise is $2.00. Total bet must be at least $4.00',
    );
    fireEvent.click(preset('All-In'));
    await act(async () => confirm());
    expect(send).toHaveBeenCalledTimes(1);
    expect(send).toHaveBeenCalledWith({
      type: 'act',
      action: 'RAISE',
      amount: 300,
      facing: { handNumber: 1, stage: 'PRE_FLOP', toCall: 100 },
    });
  });

  it('offers no raise when nobody can call more than the highest bet', () => {
    // Cal all-in for $3.00; Ben could only call it: the dialog (open from before) offers nothing.
    const room = actNow(
      actNow(actNow(started(['Ana', 'Ben', 'Cal'], { chips: { Cal: 300 } }), 'FOLD'), 'CALL'),
      'ALL_IN',
    );
    expect(room.gameState.currentTurnPlayerId).toBe('ben');
    const { dialog, preset } = open(room);
    expect(dialog.textContent).toContain('A full raise is not possible: you can call, or fold.');
    expect(preset('All-In')).toHaveProperty('disabled', true);
    expect(within(dialog).getByRole('button', { name: 'Confirm Raise' })).toHaveProperty('disabled', true);
  });

  it("reads 'Raising...' while the raise is on its way and shows the server's error as is", async () => {
    let resolve!: (res: Ack<unknown>) => void;
    const room = threeWay();
    const send = vi.fn(() => new Promise<Ack<unknown>>((r) => (resolve = r)));
    render(<RaiseModal room={room} playerId="ana" send={send} onClose={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'Confirm Raise' }));
    expect(screen.getByRole('button', { name: 'Raising...' })).toHaveProperty('disabled', true);
    await act(async () => resolve({ ok: false, error: 'It is not your turn' }));
    expect(screen.getByRole('alert').textContent).toBe('It is not your turn');
  });

  it('closes on Escape and on Cancel', () => {
    const { onClose } = open(threeWay());
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(2);
  });
});

import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Command, Room } from '../../engine/types';
import type { Ack } from '../../shared/protocol';
import { actNow, started, step } from '../test/rooms';
import { RebuyModal } from './RebuyModal';

afterEach(cleanup);

const noConnection: Ack<null> = {
  ok: false,
  error: 'No connection right now. Please try again in a moment.',
};

/** Hand 1 over: Ana won Cal's chips, so Cal is at $0.00. */
function afterShowdown(): Room {
  let room = started(['Ana', 'Ben', 'Cal']);
  room = actNow(room, 'ALL_IN');
  room = actNow(room, 'FOLD');
  room = actNow(room, 'CALL');
  return step(room, 'ana', { type: 'declareWinners', winnerIds: ['ana'] });
}

describe('Rebuy modal: a rebuy whose answer was lost', () => {
  it('a rebuy whose answer was lost but which went through is not offered again (no double rebuy)', async () => {
    const room = afterShowdown();
    const send = vi.fn(async (_c: Command) => noConnection);
    const onClose = vi.fn();
    const { rerender } = render(<RebuyModal room={room} send={send} onClose={onClose} />);
    const dialog = screen.getByRole('dialog', { name: 'Player Rebuy' });
    fireEvent.change(within(dialog).getByLabelText('Player'), { target: { value: 'cal' } });
    fireEvent.change(within(dialog).getByLabelText('Rebuy Amount'), { target: { value: '50' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Add Chips' })));
    expect(send).toHaveBeenCalledTimes(1);
    expect(within(dialog).getByRole('alert').textContent).toBe(
      'No connection right now. Please try again in a moment.',
    );
    // The server did add the chips: the next snapshot carries the rebuy.
    const applied = step(room, 'ana', { type: 'rebuy', playerId: 'cal', amount: 5_000 });
    rerender(<RebuyModal room={applied} send={send} onClose={onClose} />);
    expect(onClose).toHaveBeenCalled();
  });

  it('does not close for a rebuy someone else made before this one was sent', async () => {
    const before = step(afterShowdown(), 'ana', { type: 'rebuy', playerId: 'cal', amount: 5_000 });
    const send = vi.fn(async (_c: Command) => noConnection);
    const onClose = vi.fn();
    const { rerender } = render(<RebuyModal room={before} send={send} onClose={onClose} />);
    const dialog = screen.getByRole('dialog', { name: 'Player Rebuy' });
    fireEvent.change(within(dialog).getByLabelText('Player'), { target: { value: 'cal' } });
    fireEvent.change(within(dialog).getByLabelText('Rebuy Amount'), { target: { value: '50' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Add Chips' })));
    rerender(<RebuyModal room={{ ...before }} send={send} onClose={onClose} />);
    expect(onClose).not.toHaveBeenCalled();
  });
});

describe('Rebuy modal: amounts', () => {
  it("an amount above what the server takes ($100,000,000) reads 'Please enter a valid positive amount', not 'Invalid request'", async () => {
    const send = vi.fn(async (_c: Command) => ({ ok: false, error: 'Invalid request' }) as Ack<null>);
    render(<RebuyModal room={afterShowdown()} send={send} onClose={() => {}} />);
    const dialog = screen.getByRole('dialog', { name: 'Player Rebuy' });
    fireEvent.change(within(dialog).getByLabelText('Player'), { target: { value: 'cal' } });
    fireEvent.change(within(dialog).getByLabelText('Rebuy Amount'), { target: { value: '100000000.01' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Add Chips' })));
    expect(within(dialog).getByRole('alert').textContent).toBe('Please enter a valid positive amount');
    expect(send).not.toHaveBeenCalled();
    const amount = within(dialog).getByLabelText('Rebuy Amount');
    expect(amount.getAttribute('aria-invalid')).toBe('true');
    expect(amount.getAttribute('aria-describedby')).toBe(within(dialog).getByRole('alert').id);
    expect(within(dialog).getByLabelText('Player').getAttribute('aria-invalid')).toBeNull();
  });
});

describe('Rebuy modal: a decimal comma', () => {
  it("'25,50' (a phone whose decimal key is a comma) adds $25.50", async () => {
    const send = vi.fn(async (_c: Command) => ({ ok: true, data: null }) as Ack<null>);
    render(<RebuyModal room={afterShowdown()} send={send} onClose={() => {}} />);
    const dialog = screen.getByRole('dialog', { name: 'Player Rebuy' });
    fireEvent.change(within(dialog).getByLabelText('Player'), { target: { value: 'cal' } });
    fireEvent.change(within(dialog).getByLabelText('Rebuy Amount'), { target: { value: '25,50' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Add Chips' })));
    expect(send).toHaveBeenCalledWith({ type: 'rebuy', playerId: 'cal', amount: 2_550 });
  });
});

describe('Rebuy modal: the player', () => {
  const select = () =>
    within(screen.getByRole('dialog', { name: 'Player Rebuy' })).getByLabelText(
      'Player',
    ) as HTMLSelectElement;
  const options = () => Array.from(select().options).map((o) => o.textContent);

  it('the one player at $0.00 is chosen already; every option shows the stack', async () => {
    const send = vi.fn(async (_c: Command) => ({ ok: true, data: null }) as Ack<null>);
    render(<RebuyModal room={afterShowdown()} send={send} onClose={() => {}} />);
    expect(select().value).toBe('cal');
    expect(options()).toEqual(['Choose a player...', 'Ana · $101.00', 'Ben · $49.00', 'Cal · $0.00']);
    fireEvent.change(screen.getByLabelText('Rebuy Amount'), { target: { value: '50' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Add Chips' })));
    expect(send).toHaveBeenCalledWith({ type: 'rebuy', playerId: 'cal', amount: 5_000 });
  });

  it('nobody at $0.00, or two: the host chooses', () => {
    render(<RebuyModal room={started(['Ana', 'Ben', 'Cal'])} send={vi.fn()} onClose={() => {}} />);
    expect(select().value).toBe('');
    cleanup();
    // Ben and Cal both bust: Ana's all-in, called by both, wins it all.
    let room = started(['Ana', 'Ben', 'Cal']);
    room = actNow(room, 'ALL_IN');
    room = actNow(room, 'CALL');
    room = actNow(room, 'CALL');
    room = step(room, 'ana', { type: 'declareWinners', winnerIds: ['ana'] });
    render(<RebuyModal room={room} send={vi.fn()} onClose={() => {}} />);
    expect(options()).toEqual(['Choose a player...', 'Ana · $150.00', 'Ben · $0.00', 'Cal · $0.00']);
    expect(select().value).toBe('');
  });
});

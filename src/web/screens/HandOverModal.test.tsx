import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Command, Room } from '../../engine/types';
import type { Ack } from '../../shared/protocol';
import { lobby, snapshot, started, step } from '../test/rooms';
import { HandOverModal } from './HandOverModal';
import { Table } from './Table';

afterEach(cleanup);

const ok: Ack<null> = { ok: true, data: null };

function show(room: Room, me: string) {
  const send = vi.fn(async (_c: Command) => ok);
  const onLeave = vi.fn(async () => ok);
  const view = (r: Room) => <Table snapshot={snapshot(r)} me={me} send={send} onLeave={onLeave} />;
  const { rerender } = render(view(room));
  return { send, onLeave, update: (r: Room) => rerender(view(r)) };
}

const dialog = () => screen.getByRole('dialog', { name: 'Leave this game?' });
const submit = () => within(dialog()).getByRole('button', { name: /^Make / }) as HTMLButtonElement;

describe('the host leaving: hand over the host role first', () => {
  it('a host holding the seat by a link (a borrowed phone) may give the phone back: nothing sent', () => {
    const handBack = vi.fn();
    const send = vi.fn(async (_c: Command) => ok);
    render(
      <HandOverModal
        room={started(['Ana', 'Ben'])}
        me="ana"
        send={send}
        onClose={() => {}}
        onHandBack={handBack}
      />,
    );
    const box = screen.getByRole('dialog', { name: 'Leave this game?' });
    expect(box.textContent).toContain('This phone holds your seat by a link.');
    fireEvent.click(within(box).getByRole('button', { name: 'Give This Phone Back' }));
    expect(handBack).toHaveBeenCalledTimes(1);
    expect(send).not.toHaveBeenCalled();
    cleanup();
    render(<HandOverModal room={started(['Ana', 'Ben'])} me="ana" send={send} onClose={() => {}} />);
    expect(screen.queryByRole('button', { name: 'Give This Phone Back' })).toBeNull();
  });

  it('lists the players at the table (not the host, not a stranger waiting), sends makeHost, then asks the leave question', async () => {
    let room = started(['Ana', 'Ben', 'Cal']);
    room = step(room, 'zed', { type: 'join', name: 'Zed', startingChips: 5_000 });
    const { send, onLeave, update } = show(room, 'ana');
    fireEvent.click(screen.getByRole('button', { name: 'Leave game' }));
    expect(dialog().textContent).toContain(
      "Leaving for good? You're the host: make someone else the host first, and the game goes on without you.",
    );
    expect(dialog().textContent).toContain('To end the game for everyone, use End Game.');
    expect(
      within(dialog())
        .getAllByRole('radio')
        .map((r) => r.closest('label')?.textContent),
    ).toEqual(['Ben', 'Cal']);
    expect(submit().textContent).toBe('Make Host');
    expect(submit().disabled).toBe(true);
    fireEvent.click(within(dialog()).getByRole('radio', { name: 'Cal' }));
    expect(submit().textContent).toBe('Make Cal the Host');
    await act(async () => fireEvent.click(submit()));
    expect(send.mock.calls).toEqual([[{ type: 'makeHost', playerId: 'cal' }]]);
    // The role has moved: the same place now asks what every player's leave button asks.
    update(step(room, 'ana', { type: 'makeHost', playerId: 'cal' }));
    expect(dialog().textContent).toContain(
      'Your chips at this moment stay in the final results. You can see them from the home screen once the host ends the game.',
    );
    expect(within(dialog()).queryByRole('radio')).toBeNull();
    await act(async () => fireEvent.click(within(dialog()).getByRole('button', { name: 'Leave Game' })));
    expect(onLeave).toHaveBeenCalledTimes(1);
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('a player chosen who leaves meanwhile is no longer offered, and nothing is sent for them', async () => {
    const room = started(['Ana', 'Ben', 'Cal']);
    const { send, update } = show(room, 'ana');
    fireEvent.click(screen.getByRole('button', { name: 'Leave game' }));
    fireEvent.click(within(dialog()).getByRole('radio', { name: 'Ben' }));
    update(step(room, 'ben', { type: 'leave' }));
    expect(
      within(dialog())
        .getAllByRole('radio')
        .map((r) => r.closest('label')?.textContent),
    ).toEqual(['Cal']);
    expect(submit().disabled).toBe(true);
    await act(async () => fireEvent.submit(submit().closest('form')!));
    expect(send).not.toHaveBeenCalled();
  });

  it('with nobody else at the table (only a stranger waiting) it says to use End Game, and offers no one', () => {
    // Unreachable at a table in play (the game ends when the last other player goes); the dialog
    // still says something true.
    render(
      <HandOverModal
        room={lobby(['Ana', 'Zed'], { pending: ['Zed'] })}
        me="ana"
        send={async () => ok}
        onClose={() => {}}
      />,
    );
    expect(dialog().textContent).toContain('Nobody else is at the table. Use End Game to end it.');
    expect(within(dialog()).queryByRole('radio')).toBeNull();
    expect(within(dialog()).queryByRole('button', { name: /^Make / })).toBeNull();
  });

  it('the host can sit out instead: still the host, dealt out until back (or running the table without playing)', async () => {
    const room = started(['Ana', 'Ben', 'Cal']);
    const { send, update } = show(room, 'ana');
    fireEvent.click(screen.getByRole('button', { name: 'Leave game' }));
    expect(dialog().textContent).toContain(
      'Only stepping away for a while, or running the table without playing? Sit out: you stay the host, keep your chips, and are dealt out until you are back.',
    );
    // First: the host steps away many times a night and leaves once (a full table's hand-over list
    // would push it under the fold).
    const text = dialog().textContent ?? '';
    expect(text.indexOf('Only stepping away')).toBeLessThan(text.indexOf('Leaving for good?'));
    await act(async () => fireEvent.click(within(dialog()).getByRole('button', { name: 'Sit Out Instead' })));
    expect(send.mock.calls).toEqual([[{ type: 'sitOut', away: true }]]);
    expect(screen.queryByRole('dialog')).toBeNull();
    // Sitting out, the host still has the host's controls, and the dock's Stay In (still in this hand).
    update(step(room, 'ana', { type: 'sitOut', away: true }));
    expect(screen.getByRole('region', { name: 'Host controls' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Stay In' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Leave game' }));
    expect(within(dialog()).queryByRole('button', { name: 'Sit Out Instead' })).toBeNull();
  });

  it("a player's leave button still asks the plain leave question", () => {
    show(started(['Ana', 'Ben', 'Cal']), 'ben');
    fireEvent.click(screen.getByRole('button', { name: 'Leave game' }));
    expect(dialog().textContent).toContain(
      'Your chips at this moment stay in the final results. You can see them from the home screen once the host ends the game.',
    );
    expect(within(dialog()).queryByRole('radio')).toBeNull();
  });
});

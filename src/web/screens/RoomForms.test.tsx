import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Ack } from '../../shared/protocol';
import { CreateRoomModal, JoinRoomModal } from './RoomForms';

afterEach(cleanup);

const ok: Ack<null> = { ok: true, data: null };
const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const type = (label: string, value: string) => fireEvent.change(field(label), { target: { value } });

describe('Start a Game form', () => {
  it('is a dialog named by its title, with the default chips', () => {
    render(<CreateRoomModal onClose={() => {}} onCreate={async () => ok} />);
    expect(screen.getByRole('dialog', { name: 'Start a Game' })).toBeTruthy();
    expect(field('Your Name').value).toBe('');
    expect(field('Starting Chips').value).toBe('50');
    expect(screen.getByRole('button', { name: 'Create Room' })).toHaveProperty('disabled', false);
  });

  it("refuses a blank name with 'Please enter your name'", () => {
    const onCreate = vi.fn(async () => ok);
    render(<CreateRoomModal onClose={() => {}} onCreate={onCreate} />);
    type('Your Name', '   ');
    fireEvent.click(screen.getByRole('button', { name: 'Create Room' }));
    expect(screen.getByRole('alert').textContent).toBe('Please enter your name');
    expect(onCreate).not.toHaveBeenCalled();
  });

  it('limits the name to 20 characters', () => {
    render(<CreateRoomModal onClose={() => {}} onCreate={async () => ok} />);
    expect(field('Your Name').maxLength).toBe(20);
    type('Your Name', 'A'.repeat(25));
    expect(field('Your Name').value).toBe('A'.repeat(20));
  });

  it('accepts only digits with at most 2 decimals, up to 10000', () => {
    render(<CreateRoomModal onClose={() => {}} onCreate={async () => ok} />);
    type('Starting Chips', '12.5');
    expect(field('Starting Chips').value).toBe('12.5');
    type('Starting Chips', '12.55');
    expect(field('Starting Chips').value).toBe('12.55');
    type('Starting Chips', '12.555');
    expect(field('Starting Chips').value).toBe('12.55');
    type('Starting Chips', '12a');
    expect(field('Starting Chips').value).toBe('12.55');
    type('Starting Chips', '-5');
    expect(field('Starting Chips').value).toBe('12.55');
    type('Starting Chips', '10000');
    expect(field('Starting Chips').value).toBe('10000');
    type('Starting Chips', '10000.01');
    expect(field('Starting Chips').value).toBe('10000');
  });

  it('disables the submit while the chips are below 1', () => {
    render(<CreateRoomModal onClose={() => {}} onCreate={async () => ok} />);
    const submit = screen.getByRole('button', { name: 'Create Room' });
    type('Starting Chips', '0.99');
    expect(submit).toHaveProperty('disabled', true);
    type('Starting Chips', '');
    expect(submit).toHaveProperty('disabled', true);
    type('Starting Chips', '1');
    expect(submit).toHaveProperty('disabled', false);
  });

  it("sends the trimmed name and the chips in cents, reading 'Creating...' meanwhile", async () => {
    let resolve!: (res: Ack<unknown>) => void;
    const onCreate = vi.fn(() => new Promise<Ack<unknown>>((r) => (resolve = r)));
    render(<CreateRoomModal onClose={() => {}} onCreate={onCreate} />);
    type('Your Name', '  Ana ');
    type('Starting Chips', '25.50');
    fireEvent.click(screen.getByRole('button', { name: 'Create Room' }));
    expect(onCreate).toHaveBeenCalledWith('Ana', 2550);
    expect(screen.getByRole('button', { name: 'Creating...' })).toHaveProperty('disabled', true);
    await act(async () => resolve({ ok: false, error: 'Failed to create room. Please try again.' }));
    expect(screen.getByRole('alert').textContent).toBe('Failed to create room. Please try again.');
    expect(screen.getByRole('button', { name: 'Create Room' })).toBeTruthy();
  });

  it("a create the server failed to carry out reads 'Failed to create room. Please try again.'", async () => {
    render(
      <CreateRoomModal
        onClose={() => {}}
        onCreate={async () => ({ ok: false, error: 'Something went wrong' })}
      />,
    );
    type('Your Name', 'Ana');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Create Room' })));
    expect(screen.getByRole('alert').textContent).toBe('Failed to create room. Please try again.');
  });
});

describe('Join a Game form', () => {
  it('upper-cases the room code and keeps at most 5 letters and digits', () => {
    render(<JoinRoomModal onClose={() => {}} onJoin={async () => ok} />);
    expect(screen.getByRole('dialog', { name: 'Join a Game' })).toBeTruthy();
    type('Room Code', 'ab-c1');
    expect(field('Room Code').value).toBe('ABC1');
    type('Room Code', 'abc1d9xyz');
    expect(field('Room Code').value).toBe('ABC1D');
    expect(field('Room Code').maxLength).toBe(5);
  });

  it("asks for both the code and the name: 'Please enter both room code and your name'", () => {
    const onJoin = vi.fn(async () => ok);
    render(<JoinRoomModal onClose={() => {}} onJoin={onJoin} />);
    const submit = screen.getByRole('button', { name: 'Join Room' });
    type('Your Name', 'Ben');
    fireEvent.click(submit);
    expect(screen.getByRole('alert').textContent).toBe('Please enter both room code and your name');
    type('Your Name', '');
    type('Room Code', 'ABCDE');
    fireEvent.click(submit);
    expect(screen.getByRole('alert').textContent).toBe('Please enter both room code and your name');
    expect(onJoin).not.toHaveBeenCalled();
  });

  it('disables the submit while the chips are below 1, and limits decimals', () => {
    render(<JoinRoomModal onClose={() => {}} onJoin={async () => ok} />);
    const submit = screen.getByRole('button', { name: 'Join Room' });
    type('Starting Chips', '0');
    expect(submit).toHaveProperty('disabled', true);
    type('Starting Chips', '0.5');
    expect(submit).toHaveProperty('disabled', true);
    type('Starting Chips', '0.555');
    expect(field('Starting Chips').value).toBe('0.5');
    type('Starting Chips', '3');
    expect(submit).toHaveProperty('disabled', false);
  });

  it("fills the code from a join link and sends the join, reading 'Joining...' meanwhile", async () => {
    let resolve!: (res: Ack<unknown>) => void;
    const onJoin = vi.fn(() => new Promise<Ack<unknown>>((r) => (resolve = r)));
    render(<JoinRoomModal initialCode="xy12z" onClose={() => {}} onJoin={onJoin} />);
    expect(field('Room Code').value).toBe('XY12Z');
    expect(document.activeElement).toBe(field('Your Name'));
    type('Your Name', 'Ben');
    fireEvent.click(screen.getByRole('button', { name: 'Join Room' }));
    expect(onJoin).toHaveBeenCalledWith('XY12Z', 'Ben', 5000);
    expect(screen.getByRole('button', { name: 'Joining...' })).toHaveProperty('disabled', true);
    await act(async () =>
      resolve({ ok: false, error: 'Name already taken. Please choose a different name.' }),
    );
    expect(screen.getByRole('alert').textContent).toBe('Name already taken. Please choose a different name.');
  });

  it("a join the server failed to carry out reads 'Failed to join room. Please try again.'", async () => {
    render(
      <JoinRoomModal
        initialCode="XY12Z"
        onClose={() => {}}
        onJoin={async () => ({ ok: false, error: 'Something went wrong' })}
      />,
    );
    type('Your Name', 'Ben');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Join Room' })));
    expect(screen.getByRole('alert').textContent).toBe('Failed to join room. Please try again.');
  });
});

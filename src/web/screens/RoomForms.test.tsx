import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CONVERSION_ERRORS } from '../../engine';
import { MSG } from '../../engine/messages';
import type { Ack } from '../../shared/protocol';
import { chipsErrors } from '../texts';
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
    // The name field is marked wrong and described by the error line, until a name is typed.
    const alertId = screen.getByRole('alert').id;
    expect(alertId).not.toBe('');
    expect(field('Your Name').getAttribute('aria-invalid')).toBe('true');
    expect(field('Your Name').getAttribute('aria-describedby')).toBe(alertId);
    expect(field('Starting Chips').getAttribute('aria-invalid')).toBeNull();
    type('Your Name', 'Ann');
    expect(field('Your Name').getAttribute('aria-invalid')).toBeNull();
    expect(field('Your Name').getAttribute('aria-describedby')).toBeNull();
  });

  it('limits the name to 20 characters', () => {
    render(<CreateRoomModal onClose={() => {}} onCreate={async () => ok} />);
    expect(field('Your Name').maxLength).toBe(20);
    type('Your Name', 'A'.repeat(25));
    expect(field('Your Name').value).toBe('A'.repeat(20));
  });

  it('cuts a name over 20 characters before an emoji, not through it (no half emoji shown as \uFFFD)', () => {
    render(<CreateRoomModal onClose={() => {}} onCreate={async () => ok} />);
    type('Your Name', 'Bobbybobbybobbybobb\u{1F600}');
    expect(field('Your Name').value).toBe('Bobbybobbybobbybobb');
    // An emoji that fits whole (units 19 and 20) is kept.
    type('Your Name', 'Bobbybobbybobbybob\u{1F600}x');
    expect(field('Your Name').value).toBe('Bobbybobbybobbybob\u{1F600}');
  });

  /** The line under Starting Chips: its hint, or what is wrong with the value as typed. */
  const chipsLine = () => document.getElementById(field('Starting Chips').getAttribute('aria-describedby')!)!;

  it('keeps what is typed in Starting Chips and says what is wrong with it, Create Room disabled meanwhile', () => {
    render(<CreateRoomModal onClose={() => {}} onCreate={async () => ok} />);
    const submit = screen.getByRole('button', { name: 'Create Room' });
    expect(chipsLine().textContent).toBe('In dollars, from 1 to 10,000');
    const cases: [typed: string, line: string, enabled: boolean][] = [
      ['12.5', 'In dollars, from 1 to 10,000', true],
      ['12.', 'In dollars, from 1 to 10,000', true],
      ['$12.55', 'In dollars, from 1 to 10,000', true],
      // A phone whose decimal key is a comma: once 1250 dollars (the comma dropped unseen), then
      // refused; it is the point (withDecimalPoint). A comma that could be anything else is refused.
      ['12,50', 'In dollars, from 1 to 10,000', true],
      ['12,', 'In dollars, from 1 to 10,000', true],
      ['$ 12,5', 'In dollars, from 1 to 10,000', true],
      [',50', 'Starting chips must be at least $1.00', false],
      ['0,99', 'Starting chips must be at least $1.00', false],
      ['1,000', 'Invalid currency format. Use format like "10.50" or "10"', false],
      ['1,000.50', 'Invalid currency format. Use format like "10.50" or "10"', false],
      ['12,5,0', 'Invalid currency format. Use format like "10.50" or "10"', false],
      ['12.555', 'Invalid currency format. Use format like "10.50" or "10"', false],
      ['12a', 'Invalid currency format. Use format like "10.50" or "10"', false],
      ['-5', 'Invalid currency format. Use format like "10.50" or "10"', false],
      ['0.99', 'Starting chips must be at least $1.00', false],
      ['10000', 'In dollars, from 1 to 10,000', true],
      ['10000.01', 'Starting chips cannot be more than $10,000.00', false],
      ['', 'In dollars, from 1 to 10,000', false],
      ['.', 'In dollars, from 1 to 10,000', false],
      ['.5', 'Starting chips must be at least $1.00', false],
      ['1'.repeat(16), 'Starting chips cannot be more than $10,000.00', false],
    ];
    for (const [typed, line, enabled] of cases) {
      type('Starting Chips', typed);
      expect(field('Starting Chips').value, typed).toBe(typed);
      expect(chipsLine().textContent, typed).toBe(line);
      expect(field('Starting Chips').getAttribute('aria-invalid'), typed).toBe(
        line.startsWith('In dollars') ? null : 'true',
      );
      expect(submit.hasAttribute('disabled'), typed).toBe(!enabled);
    }
    type('Starting Chips', '1'.repeat(40));
    expect(field('Starting Chips').value).toBe('1'.repeat(16));
    expect(chipsLine().textContent).toBe('Starting chips cannot be more than $10,000.00');
  });

  it("the starting-chips errors are the engine's words", () => {
    expect(chipsErrors.tooLow).toBe(MSG.startingChipsTooLow);
    expect(chipsErrors.tooHigh).toBe(MSG.startingChipsTooHigh);
    expect(chipsErrors.format).toBe(CONVERSION_ERRORS.format);
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
  });

  it('keeps the caret where it was when a lower-case letter or a dash is typed mid-code', () => {
    render(<JoinRoomModal onClose={() => {}} onJoin={async () => ok} />);
    const code = field('Room Code');
    code.focus();
    type('Room Code', 'ABDE');
    // 'c' typed between B and D: the browser's caret is after it, at 3.
    fireEvent.change(code, { target: { value: 'ABcDE', selectionStart: 3, selectionEnd: 3 } });
    expect(code.value).toBe('ABCDE');
    expect([code.selectionStart, code.selectionEnd]).toEqual([3, 3]);
    // A dash typed after A is dropped and the caret stays after A.
    type('Room Code', 'ABDE');
    fireEvent.change(code, { target: { value: 'A-BDE', selectionStart: 2, selectionEnd: 2 } });
    expect(code.value).toBe('ABDE');
    expect(code.selectionStart).toBe(1);
    // A sixth character typed at the front is cut from the end; the caret stays after the first.
    type('Room Code', 'BCDEF');
    fireEvent.change(code, { target: { value: 'aBCDEF', selectionStart: 1, selectionEnd: 1 } });
    expect(code.value).toBe('ABCDE');
    expect(code.selectionStart).toBe(1);
  });

  it('takes a pasted code with a space or a dash in it whole, and a pasted join link its code', () => {
    render(<JoinRoomModal onClose={() => {}} onJoin={async () => ok} />);
    // A browser cuts a paste to the field's maxLength before onChange sees it (" F2EZ" and a
    // "Room not found" for " F2EZ8"); happy-dom does not, so the attribute itself is checked.
    expect(field('Room Code').hasAttribute('maxlength')).toBe(false);
    type('Room Code', ' F2EZ8');
    expect(field('Room Code').value).toBe('F2EZ8');
    type('Room Code', 'f2e-z8');
    expect(field('Room Code').value).toBe('F2EZ8');
    type('Room Code', 'https://chipless.example/?join=K7QW3');
    expect(field('Room Code').value).toBe('K7QW3');
    // A pasted message: its word of 5, one with a digit first.
    type('Room Code', 'code is hf3rh');
    expect(field('Room Code').value).toBe('HF3RH');
    type('Room Code', 'Room code: F2EZ8, hurry');
    expect(field('Room Code').value).toBe('F2EZ8');
    type('Room Code', 'ABCDEF');
    expect(field('Room Code').value).toBe('ABCDE');
  });

  it("asks for both the code and the name: 'Please enter both room code and your name'", () => {
    const onJoin = vi.fn(async () => ok);
    render(<JoinRoomModal onClose={() => {}} onJoin={onJoin} />);
    const submit = screen.getByRole('button', { name: 'Join Room' });
    type('Your Name', 'Ben');
    fireEvent.click(submit);
    expect(screen.getByRole('alert').textContent).toBe('Please enter both room code and your name');
    // The field that is missing is the one marked wrong.
    expect(field('Room Code').getAttribute('aria-describedby')).toBe(screen.getByRole('alert').id);
    expect(field('Room Code').getAttribute('aria-invalid')).toBe('true');
    expect(field('Your Name').getAttribute('aria-invalid')).toBeNull();
    type('Your Name', '');
    type('Room Code', 'ABCDE');
    fireEvent.click(submit);
    expect(screen.getByRole('alert').textContent).toBe('Please enter both room code and your name');
    expect(onJoin).not.toHaveBeenCalled();
  });

  it('says what is wrong with Starting Chips and disables Join Room meanwhile; a decimal comma is the point', async () => {
    const onJoin = vi.fn(async () => ok);
    render(<JoinRoomModal onClose={() => {}} onJoin={onJoin} />);
    const submit = screen.getByRole('button', { name: 'Join Room' });
    type('Starting Chips', '0');
    expect(submit).toHaveProperty('disabled', true);
    expect(screen.getByText('Starting chips must be at least $1.00')).toBeTruthy();
    type('Starting Chips', '1,250');
    expect(submit).toHaveProperty('disabled', true);
    expect(field('Starting Chips').value).toBe('1,250');
    expect(screen.getByText('Invalid currency format. Use format like "10.50" or "10"')).toBeTruthy();
    type('Starting Chips', '3');
    expect(submit).toHaveProperty('disabled', false);
    expect(screen.queryByText(/Invalid currency format/)).toBeNull();
    type('Starting Chips', '12,50');
    expect(submit).toHaveProperty('disabled', false);
    expect(field('Starting Chips').value).toBe('12,50');
    type('Room Code', 'ab3de');
    type('Your Name', 'Ben');
    await act(async () => fireEvent.click(submit));
    expect(onJoin).toHaveBeenCalledWith('AB3DE', 'Ben', 1_250);
  });

  it("the phone's keyboard neither corrects nor underlines a name or a code; a name starts with a capital", () => {
    render(<JoinRoomModal onClose={() => {}} onJoin={async () => ok} />);
    const attrs = (label: string) =>
      ['autocapitalize', 'autocorrect', 'spellcheck'].map((a) => field(label).getAttribute(a));
    expect(attrs('Your Name')).toEqual(['words', 'off', 'false']);
    expect(attrs('Room Code')).toEqual(['characters', 'off', 'false']);
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

/**
 * On a slow or stalling link (e2e/bad-network.test.ts) an answer takes seconds: after SLOW_AFTER_MS
 * the screen says so under the greyed buttons, so a player does not tap again or tap around.
 */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Command } from '../../engine/types';
import type { Ack } from '../../shared/protocol';
import { SLOW_AFTER_MS } from '../components/forms';
import { snapshot, started } from '../test/rooms';
import { Table } from './Table';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const SLOW = 'Slow connection, still sending. No need to tap again.';

/** A send whose answer comes only when `answer` is called. */
function pendingSend() {
  let answer: (res: Ack<unknown>) => void = () => {};
  const send = vi.fn(
    (_c: Command) =>
      new Promise<Ack<unknown>>((resolve) => {
        answer = resolve;
      }),
  );
  return { send, answer: (res: Ack<unknown>) => answer(res) };
}

/** Ana's turn at a three-way table (fake timers), every command's answer held until `answer`. */
function slowTable() {
  vi.useFakeTimers();
  const pending = pendingSend();
  render(
    <Table
      snapshot={snapshot(started(['Ana', 'Ben', 'Cal']))}
      me="ana"
      send={pending.send}
      onLeave={async () => ({ ok: true, data: null })}
    />,
  );
  return pending;
}

describe('a slow answer', () => {
  it('the turn: after 2 s of waiting the dock says the connection is slow; the answer takes it away', async () => {
    const { send, answer } = slowTable();
    fireEvent.click(screen.getByRole('button', { name: 'Call $2.00' }));
    expect(send.mock.calls).toEqual([
      [{ type: 'act', action: 'CALL', facing: { handNumber: 1, stage: 'PRE_FLOP', toCall: 200 } }],
    ]);
    expect((screen.getByRole('button', { name: 'Call $2.00' }) as HTMLButtonElement).disabled).toBe(true);
    await act(async () => {
      vi.advanceTimersByTime(SLOW_AFTER_MS - 1);
    });
    expect(screen.queryByText(SLOW)).toBeNull();
    await act(async () => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.getByText(SLOW).getAttribute('role')).toBe('status');
    await act(async () => {
      answer({ ok: true, data: { version: 2 } });
    });
    expect(screen.queryByText(SLOW)).toBeNull();
    expect(SLOW_AFTER_MS).toBe(2_000);
  });

  it('a dialog (Raise): the line sits under "Raising..." while the answer is late', async () => {
    const { answer } = slowTable();
    fireEvent.click(screen.getByRole('button', { name: 'Raise' }));
    const box = screen.getByRole('dialog', { name: 'Raise' });
    fireEvent.click(within(box).getByRole('button', { name: 'Confirm Raise' }));
    expect(within(box).getByRole('button', { name: 'Raising...' })).toBeTruthy();
    await act(async () => {
      vi.advanceTimersByTime(SLOW_AFTER_MS);
    });
    expect(within(box).getByText(SLOW)).toBeTruthy();
    await act(async () => {
      answer({ ok: false, error: 'It is not your turn' });
    });
    expect(within(box).queryByText(SLOW)).toBeNull();
    expect(within(box).getByRole('alert').textContent).toBe('It is not your turn');
  });

  it('an answer within 2 s never shows the line', async () => {
    const { answer } = slowTable();
    fireEvent.click(screen.getByRole('button', { name: 'Call $2.00' }));
    await act(async () => {
      vi.advanceTimersByTime(1_500);
      answer({ ok: true, data: { version: 2 } });
    });
    await act(async () => {
      vi.advanceTimersByTime(5_000);
    });
    expect(screen.queryByText(SLOW)).toBeNull();
  });
});

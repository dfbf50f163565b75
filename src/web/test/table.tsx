/** Renders the table as a phone would (`me`), with a `send` that answers ok, for component tests. */
import { render, screen, within } from '@testing-library/react';
import { vi } from 'vitest';
import type { Command, Room } from '../../engine/types';
import type { Ack } from '../../shared/protocol';
import { Table } from '../screens/Table';
import { snapshot } from './rooms';

const ok: Ack<null> = { ok: true, data: null };

/** The table of `room` seen by `me`; `update` re-renders it with a later room, as a broadcast does. */
export function showTable(room: Room, me: string) {
  const send = vi.fn(async (_c: Command) => ok);
  const view = (r: Room) => <Table snapshot={snapshot(r)} me={me} send={send} onLeave={async () => ok} />;
  const utils = render(view(room));
  return { send, update: (r: Room) => utils.rerender(view(r)) };
}

/** The seat row of the player whose name starts with `name`, on the table rendered now. */
export const seatRow = (name: string): HTMLElement =>
  screen
    .getAllByRole('listitem')
    .find(
      (li) =>
        li.classList.contains('seat') && li.querySelector('.player-name')?.textContent?.startsWith(name),
    )!;

/** The buttons' names in `scope`, in order: the label, or the text (Undo is an icon with a label). */
export const buttonNames = (scope: HTMLElement) =>
  within(scope)
    .getAllByRole('button')
    .map((b) => b.getAttribute('aria-label') ?? b.textContent);

/** Renders the table as a phone would (`me`), with a `send` that answers ok, for component tests. */
import { render, screen, within } from '@testing-library/react';
import { vi } from 'vitest';
import type { Command, Room } from '../../engine/types';
import type { Ack } from '../../shared/protocol';
import type { SeatLinkRequest } from '../screens/SeatLinkModal';
import { Table } from '../screens/Table';
import { heldSnapshot } from './rooms';

const ok: Ack<null> = { ok: true, data: null };

/**
 * The table of `room` seen by `me`, the `offline` players' phones away and, when given, `idle` as the
 * acknowledgement of a phone loading the room says it (RoomSnapshot.idle), and `seatLink` as the host's
 * request for a seat link (refused by default); `update` re-renders it with
 * a later room (and who is away then), as a broadcast does: without `idle`.
 */
export function showTable(
  room: Room,
  me: string,
  offline: string[] = [],
  idle?: number,
  seatLink: SeatLinkRequest = async () => ({ ok: false, error: 'x' }),
  onHandBack?: () => void,
) {
  const send = vi.fn(async (_c: Command): Promise<Ack<unknown>> => ok);
  const view = (r: Room, off: string[], held?: number) => (
    <Table
      snapshot={heldSnapshot(r, off, held)}
      me={me}
      send={send}
      onLeave={async () => ok}
      seatLink={seatLink}
      onHandBack={onHandBack}
    />
  );
  const utils = render(view(room, offline, idle));
  return { send, update: (r: Room, off = offline) => utils.rerender(view(r, off)) };
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

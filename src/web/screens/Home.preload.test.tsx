// A file of its own: the in-room screens are module-level lazy components, and another test that
// rendered the table first would have loaded it for this one.
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { RoomSnapshot } from '../../shared/protocol';
import { MemoryRouter } from '../router';
import { roomApi } from '../test/room-api';
import { lobby, snapshot, started } from '../test/rooms';
import { HomeView, preloadRoomScreens } from './Home';

afterEach(cleanup);

const view = (snap: RoomSnapshot) => (
  <MemoryRouter>
    <HomeView api={roomApi({ snapshot: snap })} />
  </MemoryRouter>
);

describe('Home: the in-room screens once loaded', () => {
  it('a guest in the lobby goes straight to the table when the host starts: no "Getting back to your game…"', async () => {
    await act(() => preloadRoomScreens());
    const { rerender } = render(view(snapshot(lobby(['Ana', 'Ben']))));
    expect(screen.getByText('Waiting for host to start the game')).toBeTruthy();
    rerender(view(snapshot(started(['Ana', 'Ben']))));
    expect(screen.queryByText('Getting back to your game…')).toBeNull();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toContain('Pre-Flop');
  });
});

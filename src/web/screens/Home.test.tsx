import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RoomSnapshot } from '../../shared/protocol';
import type { RoomApi } from '../net/use-room';
import { snapshot, started, step } from '../test/rooms';
import { HomeView } from './Home';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ended = snapshot(step(started(['Ana', 'Ben']), 'ana', { type: 'endGame' }));

function Harness({ initial }: { initial: RoomSnapshot | null }) {
  const [snap, setSnap] = useState(initial);
  const api: RoomApi = {
    connection: 'online',
    snapshot: snap,
    playerId: 'ben',
    resuming: false,
    notice: null,
    createRoom: async () => ({ ok: false, error: 'x' }),
    joinRoom: async () => ({ ok: false, error: 'x' }),
    send: async () => ({ ok: false, error: 'x' }),
    leave: async () => ({ ok: true, data: null }),
    forget: () => setSnap(null),
    dismissNotice: () => {},
  };
  return <HomeView api={api} />;
}

describe('Home: a join link while the last game is over', () => {
  it('a join link opened while the last game is over joins the new room after "Back to Home"', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('nope', { status: 500 })),
    );
    await act(async () =>
      render(
        <MemoryRouter initialEntries={['/?join=NEWCO']}>
          <Harness initial={ended} />
        </MemoryRouter>,
      ),
    );
    // The last game's results first (they are what the friends settle up with)...
    const back = await screen.findByRole('button', { name: 'Back to Home' });
    await act(async () => fireEvent.click(back));
    // ...then the new room's join form, with its code, not a bare landing.
    const dialog = screen.getByRole('dialog', { name: 'Join a Game' });
    expect((within(dialog).getByLabelText('Room Code') as HTMLInputElement).value).toBe('NEWCO');
  });
});

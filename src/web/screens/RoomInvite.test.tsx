import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorBoundary } from '../components/ErrorBoundary';
import { RoomInvite } from './RoomInvite';

afterEach(cleanup);

// The QR code's own file, fetched the first time an invite opens: one that cannot load (the table's
// "Room ABCDE" tapped while the phone is offline, on a page reloaded at the table, so never through the
// lobby) is a missing picture, not the whole table's error screen.
const qr = vi.hoisted(() => ({ fail: true }));
vi.mock('../components/QrCode', async (importOriginal) => {
  if (qr.fail) throw new TypeError('Failed to fetch dynamically imported module');
  return importOriginal();
});

describe('RoomInvite', () => {
  it("a QR code whose file cannot load leaves the code and the join link, not the app's error screen", async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const invite = () => (
      <ErrorBoundary onReload={() => {}}>
        <RoomInvite roomCode="ABCDE" origin="https://chipless.example" labelId="code" />
      </ErrorBoundary>
    );
    const { container, unmount } = render(invite());
    // React logs the import's failure as it reaches a boundary.
    await waitFor(() => expect(logged).toHaveBeenCalled());
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText('ABCDE')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'chipless.example/?join=ABCDE' })).toBeTruthy();
    expect(container.querySelector('.qr-placeholder')).not.toBeNull();
    unmount();
    // Opened again once the file can load: the QR code shows.
    qr.fail = false;
    render(invite());
    expect(await screen.findByRole('img', { name: /ABCDE/ })).toBeTruthy();
  });
});

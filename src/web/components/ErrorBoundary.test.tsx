import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorBoundary } from './ErrorBoundary';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function Broken(): never {
  throw new Error('Failed to fetch dynamically imported module');
}

describe('ErrorBoundary', () => {
  it('shows what it holds while nothing fails', () => {
    render(
      <ErrorBoundary>
        <p>Lobby</p>
      </ErrorBoundary>,
    );
    expect(screen.getByText('Lobby')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a screen that fails to render or load shows a way back, not a blank page', async () => {
    // React reports the caught error on the console; expected here.
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const onReload = vi.fn();
    render(
      <ErrorBoundary onReload={onReload}>
        <Broken />
      </ErrorBoundary>,
    );
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe(
      'Something went wrongYour seat is safe. Reload to pick up where you left off.Reload',
    );
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Reload' })));
    expect(onReload).toHaveBeenCalledTimes(1);
  });

  it('failed while offline: says the page reloads by itself, and does once the phone is online', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const onReload = vi.fn();
    render(
      <ErrorBoundary onReload={onReload}>
        <Broken />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('alert').textContent).toContain(
      'No connection right now: the page reloads by itself once the phone is back online.',
    );
    expect(onReload).not.toHaveBeenCalled();
    await act(async () => window.dispatchEvent(new Event('online')));
    expect(onReload).toHaveBeenCalledTimes(1);
  });

  it('failed while online: no offline line and no reload of its own; one if the phone goes offline and back', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const onReload = vi.fn();
    render(
      <ErrorBoundary onReload={onReload}>
        <Broken />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('alert').textContent).not.toContain('No connection');
    await act(async () => window.dispatchEvent(new Event('online')));
    expect(onReload).not.toHaveBeenCalled();
    await act(async () => window.dispatchEvent(new Event('offline')));
    expect(screen.getByRole('alert').textContent).toContain('No connection right now');
    await act(async () => window.dispatchEvent(new Event('online')));
    expect(onReload).toHaveBeenCalledTimes(1);
  });

  it('nothing failed: going offline and online reloads nothing', async () => {
    const onReload = vi.fn();
    render(
      <ErrorBoundary onReload={onReload}>
        <p>Lobby</p>
      </ErrorBoundary>,
    );
    await act(async () => {
      window.dispatchEvent(new Event('offline'));
      window.dispatchEvent(new Event('online'));
    });
    expect(onReload).not.toHaveBeenCalled();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

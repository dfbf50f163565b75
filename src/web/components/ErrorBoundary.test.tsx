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
});

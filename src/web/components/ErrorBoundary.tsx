import { Component, type ReactNode } from 'react';
import { common } from '../texts';

interface State {
  failed: boolean;
}

/**
 * The last resort under every route: a screen that failed to render, or a part of the app that
 * failed to load (a lazy chunk on a dropped connection, or one a new deploy replaced), shows a way
 * back instead of a blank page. Reloading is safe: the server keeps the room and the phone
 * remembers it, so the player comes back to the same seat.
 */
export class ErrorBoundary extends Component<{ children: ReactNode; onReload?: () => void }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    const reload = this.props.onReload ?? (() => globalThis.location.reload());
    return (
      <main className="screen centered">
        <div className="card" role="alert">
          <h1>{common.crashedTitle}</h1>
          <p>{common.crashedText}</p>
          <button type="button" className="button primary block large" onClick={reload}>
            {common.reload}
          </button>
        </div>
      </main>
    );
  }
}

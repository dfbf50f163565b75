import { Component, type ReactNode } from 'react';
import { common } from '../texts';

interface State {
  failed: boolean;
  /** The browser says it is offline (navigator.onLine false), as of the failure or the last change. */
  offline: boolean;
}

const browserOffline = () => typeof navigator !== 'undefined' && navigator.onLine === false;

/**
 * The last resort under every route: a screen that failed to render, or a part of the app that
 * failed to load (a lazy chunk on a dropped connection, or one a new deploy replaced), shows a way
 * back instead of a blank page. Reloading is safe: the server keeps the room and the phone
 * remembers it, so the player comes back to the same seat.
 */
export class ErrorBoundary extends Component<{ children: ReactNode; onReload?: () => void }, State> {
  override state: State = { failed: false, offline: false };

  static getDerivedStateFromError(): Partial<State> {
    return { failed: true, offline: browserOffline() };
  }

  private reload = () => (this.props.onReload ?? (() => globalThis.location.reload()))();

  // A part of the app that failed to load while the phone was offline (the FAQ tapped with the Wi-Fi
  // gone: the monkey audit, session 39): Reload then shows the browser's own error page, so the page
  // says so and reloads by itself once the browser is online again.
  private onOnline = () => {
    if (this.state.failed && this.state.offline) this.reload();
  };
  private onOffline = () => {
    if (this.state.failed) this.setState({ offline: true });
  };

  override componentDidMount() {
    window.addEventListener('online', this.onOnline);
    window.addEventListener('offline', this.onOffline);
  }

  override componentWillUnmount() {
    window.removeEventListener('online', this.onOnline);
    window.removeEventListener('offline', this.onOffline);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <main className="screen centered">
        <div className="card" role="alert">
          <h1>{common.crashedTitle}</h1>
          <p>{common.crashedText}</p>
          {this.state.offline ? <p className="muted">{common.crashedOffline}</p> : null}
          <button type="button" className="button primary block large" onClick={this.reload}>
            {common.reload}
          </button>
        </div>
      </main>
    );
  }
}

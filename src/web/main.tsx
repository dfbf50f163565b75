import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { installAnnouncer } from './components/announcer';
import { ErrorBoundary } from './components/ErrorBoundary';
import { installTapGuard } from './components/tap-guard';
import { startAnalytics } from './net/analytics';
import { installNewBuildReload } from './net/new-build';
import { BrowserRouter } from './router';
import './styles.css';

// The second tap of a double tap never lands on what appeared under the finger (tap-guard.ts).
installTapGuard();
// The live region outside #root, in the page before anything is said in it (announcer.ts).
installAnnouncer();
// A screen's code gone with a server upgrade: the page reloads into the new build (new-build.ts).
installNewBuildReload();

const root = document.getElementById('root');
if (root) {
  // A transition lets React yield while it builds the first screen (short tasks, no long block).
  startTransition(() => {
    createRoot(root).render(
      <StrictMode>
        <ErrorBoundary>
          <BrowserRouter>
            <App />
          </BrowserRouter>
        </ErrorBoundary>
      </StrictMode>,
    );
  });
}
startAnalytics();

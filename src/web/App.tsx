import { lazy, Suspense } from 'react';
import { Redirect, routePath, useAppLocation } from './router';
import Home from './screens/Home';

// The static pages are split out: the home route never loads them, and they never open the socket.
const About = lazy(() => import('./pages/About'));
const Faq = lazy(() => import('./pages/Faq'));

/** The routes of the spec: `/`, `/about` and `/faq`; any other path goes home. */
export function App() {
  const path = routePath(useAppLocation().pathname);
  if (path === '/') return <Home />;
  if (path === '/about')
    return (
      <Suspense fallback={null}>
        <About />
      </Suspense>
    );
  if (path === '/faq')
    return (
      <Suspense fallback={null}>
        <Faq />
      </Suspense>
    );
  return <Redirect to="/" />;
}

import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import Home from './screens/Home';

// The static pages are split out: the home route never loads them, and they never open the socket.
const About = lazy(() => import('./pages/About'));
const Faq = lazy(() => import('./pages/Faq'));

export function App() {
  return (
    <Routes>
      <Route path="/" element={<Home />} />
      <Route
        path="/about"
        element={
          <Suspense fallback={null}>
            <About />
          </Suspense>
        }
      />
      <Route
        path="/faq"
        element={
          <Suspense fallback={null}>
            <Faq />
          </Suspense>
        }
      />
      <Route path="*" element={<Navigate to="/" replace />} />
    </Routes>
  );
}

import type { ReactNode } from 'react';
import { BackIcon } from '../components/icons';
import { Link } from '../router';
import { pages } from '../texts';

/**
 * Layout of the static pages: a back button to "/", the title and the content. Both links to "/" go
 * back to the entry they came from when that was "/", rather than adding one (router.tsx, Link `back`).
 */
export function StaticPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="static-page">
      <header className="topbar">
        <Link to="/" back className="button ghost back-link">
          <BackIcon />
          <span>{pages.back}</span>
        </Link>
      </header>
      <main className="static-content">
        <h1>{title}</h1>
        {children}
        <p>
          <Link to="/" back className="button primary block large">
            {pages.startCta}
          </Link>
        </p>
      </main>
    </div>
  );
}

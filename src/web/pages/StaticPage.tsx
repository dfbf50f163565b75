import type { ReactNode } from 'react';
import { BackIcon } from '../components/icons';
import { Link } from '../router';
import { pages } from '../texts';

/** Layout of the static pages: a back button to "/", the title and the content. */
export function StaticPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="static-page">
      <header className="topbar">
        <Link to="/" className="button ghost back-link">
          <BackIcon />
          <span>{pages.back}</span>
        </Link>
      </header>
      <main className="static-content">
        <h1>{title}</h1>
        {children}
        <p>
          <Link to="/" className="button primary block large">
            {pages.startCta}
          </Link>
        </p>
      </main>
    </div>
  );
}

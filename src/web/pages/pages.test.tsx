import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryRouter } from '../router';
import About from './About';
import Faq from './Faq';

afterEach(cleanup);

const head = () => ({
  title: document.title,
  description: document.head.querySelector('meta[name="description"]')?.getAttribute('content'),
  canonical: document.head.querySelector('link[rel="canonical"]')?.getAttribute('href'),
});

/**
 * SPEC section 2: /about and /faq each set a page title, description and canonical link, and have a back
 * button to /. The server writes them into a direct load (src/server/static-site.ts); these are the
 * app's own, on a client-side navigation (the landing's FAQ link, the menu's), where no HTML is served.
 */
describe('the static pages on a client-side navigation', () => {
  it.each([
    [
      '/about',
      About,
      'About Chipless',
      'About Chipless: poker night without chips',
      'Why we built Chipless: a free web app that keeps the stacks, blinds, pots and settlements for friends playing poker at a real table with a real deck.',
    ],
    [
      '/faq',
      Faq,
      'Frequently Asked Questions',
      'Chipless FAQ: how chipless poker works',
      'Answers about Chipless: joining with a room code, blinds, side pots, rebuys, refreshing safely and settling who owes whom at the end of the night.',
    ],
  ] as const)(
    '%s sets its title, description and canonical link, with a back button to /',
    (path, Page, heading, title, description) => {
      document.title = 'Chipless: Play poker without chips';
      render(
        <MemoryRouter initialEntry={path}>
          <Page />
        </MemoryRouter>,
      );
      expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(heading);
      expect(head()).toEqual({ title, description, canonical: `${window.location.origin}${path}` });
      expect(screen.getByRole('link', { name: 'Back' }).getAttribute('href')).toBe('/');
    },
  );
});

import { useEffect } from 'react';
import { PAGES, type PageMeta } from '../../shared/pages';

function setMeta(selector: string, create: () => HTMLElement, attr: string, value: string) {
  let el = document.head.querySelector<HTMLElement>(selector);
  if (!el) {
    el = create();
    document.head.appendChild(el);
  }
  el.setAttribute(attr, value);
}

/**
 * Sets the route's title, description and canonical link on client-side navigation (the server
 * writes the same into the HTML of a direct load).
 */
export function usePageMeta(path: PageMeta['path']): void {
  useEffect(() => {
    const page = PAGES[path];
    document.title = page.title;
    setMeta(
      'meta[name="description"]',
      () => Object.assign(document.createElement('meta'), { name: 'description' }),
      'content',
      page.description,
    );
    // Keep the origin the server wrote (PUBLIC_URL) when there is one; the page's own otherwise.
    const current = document.head.querySelector<HTMLLinkElement>('link[rel="canonical"]')?.href;
    setMeta(
      'link[rel="canonical"]',
      () => Object.assign(document.createElement('link'), { rel: 'canonical' }),
      'href',
      new URL(path, current || window.location.origin).href,
    );
  }, [path]);
}

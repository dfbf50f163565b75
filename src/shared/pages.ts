/**
 * Head metadata of each route. The server writes it into the HTML it serves (so crawlers and
 * link previews see it without JavaScript); the web app sets the same on client-side navigation.
 * The canonical link is made absolute from PUBLIC_URL (or the request's host) by the server.
 */
export interface PageMeta {
  path: '/' | '/about' | '/faq';
  title: string;
  description: string;
}

export const PAGES: Record<PageMeta['path'], PageMeta> = {
  '/': {
    path: '/',
    title: 'Chipless: Play poker without chips',
    description:
      'Play poker with a real deck and no chips. One phone hosts, friends join with a 5-character code; Chipless tracks stacks, blinds, bets, side pots and who owes whom.',
  },
  '/about': {
    path: '/about',
    title: 'About Chipless: poker night without chips',
    description:
      'Why we built Chipless: a free web app that keeps the stacks, blinds, pots and settlements for friends playing poker at a real table with a real deck.',
  },
  '/faq': {
    path: '/faq',
    title: 'Chipless FAQ: how chipless poker works',
    description:
      'Answers about Chipless: joining with a room code, blinds, side pots, rebuys, refreshing safely and settling who owes whom at the end of the night.',
  },
};

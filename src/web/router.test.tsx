import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import {
  BrowserRouter,
  Link,
  MemoryRouter,
  Redirect,
  routePath,
  useAppLocation,
  useSearchParams,
} from './router';

/** Shows where the router is, and links to move. */
function Where() {
  const { pathname, search } = useAppLocation();
  const path = routePath(pathname);
  return (
    <>
      <p data-testid="where">{`${pathname}${search}`}</p>
      {path === '/nowhere' ? <Redirect to="/" /> : null}
      <Link to="/faq" className="button">
        FAQ
      </Link>
      <Link to="/about" target="_blank">
        About
      </Link>
    </>
  );
}

const where = () => screen.getByTestId('where').textContent;
/** Clicks the link named `name` (`times` times at once, as a double tap). */
const press = (name: string, times = 1) =>
  act(() => {
    for (let i = 0; i < times; i++) fireEvent.click(screen.getByRole('link', { name }));
  });

beforeEach(() => window.history.replaceState(null, '', '/'));
afterEach(cleanup);

describe('routePath: paths match as react-router matched them', () => {
  it('ignores case and trailing slashes', () => {
    expect(routePath('/About/')).toBe('/about');
    expect(routePath('/FAQ')).toBe('/faq');
    expect(routePath('/')).toBe('/');
    expect(routePath('')).toBe('/');
    expect(routePath('//')).toBe('/');
    expect(routePath('/about/x')).toBe('/about/x');
  });
});

describe('BrowserRouter: the address bar and history', () => {
  it('a plain click on a link navigates in the page with a new history entry', () => {
    render(
      <BrowserRouter>
        <Where />
      </BrowserRouter>,
    );
    const before = window.history.length;
    const link = screen.getByRole('link', { name: 'FAQ' });
    expect(link.getAttribute('href')).toBe('/faq');
    expect(link.className).toBe('button');
    const click = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
    act(() => {
      link.dispatchEvent(click);
    });
    expect(click.defaultPrevented).toBe(true);
    expect(window.location.pathname).toBe('/faq');
    expect(window.history.length).toBe(before + 1);
    expect(where()).toBe('/faq');
  });

  it('a click with a modifier key, another button or a target is left to the browser', () => {
    // What the page saw, read after React's handler; then the test stops happy-dom's own navigation.
    const leftToBrowser: boolean[] = [];
    const stop = (event: Event) => {
      leftToBrowser.push(!event.defaultPrevented);
      event.preventDefault();
    };
    window.addEventListener('click', stop);
    onTestFinished(() => window.removeEventListener('click', stop));
    render(
      <BrowserRouter>
        <Where />
      </BrowserRouter>,
    );
    const faq = screen.getByRole('link', { name: 'FAQ' });
    for (const init of [{ ctrlKey: true }, { metaKey: true }, { shiftKey: true }, { button: 1 }]) {
      act(() => {
        faq.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0, ...init }));
      });
    }
    act(() => {
      screen
        .getByRole('link', { name: 'About' })
        .dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 }));
    });
    expect(leftToBrowser).toEqual([true, true, true, true, true]);
    expect(where()).toBe('/');
  });

  it('Back and Forward (popstate) show the route the address bar holds', () => {
    render(
      <BrowserRouter>
        <Where />
      </BrowserRouter>,
    );
    act(() => {
      window.history.pushState(null, '', '/about?x=1');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    expect(where()).toBe('/about?x=1');
  });

  it('a `back` link to the page the app came from goes back to that entry, not to a new one (the history audit)', async () => {
    render(
      <BrowserRouter>
        <Where />
        <Link to="/" back>
          Home
        </Link>
      </BrowserRouter>,
    );
    const start = window.history.length;
    press('FAQ');
    expect(where()).toBe('/faq');
    expect(window.history.length).toBe(start + 1);
    const popped = new Promise((resolve) => window.addEventListener('popstate', resolve, { once: true }));
    press('Home');
    await act(async () => {
      await popped;
    });
    expect(where()).toBe('/');
    expect(window.location.pathname).toBe('/');
    // Back, not a third entry: Forward still leads to the FAQ.
    expect(window.history.length).toBe(start + 1);
    // A FAQ opened from elsewhere (no entry of the app's behind it): Home is a new entry, made from it.
    act(() => {
      window.history.replaceState(null, '', '/faq');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    press('Home');
    expect(where()).toBe('/');
    expect(window.history.state).toEqual({ chiplessFrom: '/faq' });
  });

  it('a second tap on a `back` link before the first has landed goes back once, not out of the site (review)', async () => {
    render(
      <BrowserRouter>
        <Where />
        <Link to="/" back>
          Home
        </Link>
      </BrowserRouter>,
    );
    press('FAQ');
    // A browser's history.back() lands a few ms later (popstate); until then the entry still says it
    // came from '/', and a second back() would go on out of the site. Held here until the test lets it.
    const back = vi.spyOn(window.history, 'back').mockImplementation(() => {});
    onTestFinished(() => back.mockRestore());
    press('Home', 2);
    expect(back).toHaveBeenCalledTimes(1);
    expect(where()).toBe('/faq');
    // It lands: the next tap on a `back` link is a tap again.
    back.mockRestore();
    const popped = new Promise((resolve) => window.addEventListener('popstate', resolve, { once: true }));
    window.history.back();
    await act(async () => {
      await popped;
    });
    expect(where()).toBe('/');
    press('FAQ');
    const again = vi.spyOn(window.history, 'back').mockImplementation(() => {});
    onTestFinished(() => again.mockRestore());
    press('Home');
    expect(again).toHaveBeenCalledTimes(1);
  });

  it('an unknown path is replaced by home, without a history entry to come back to', () => {
    window.history.replaceState(null, '', '/nowhere');
    const before = window.history.length;
    render(
      <BrowserRouter>
        <Where />
      </BrowserRouter>,
    );
    expect(window.location.pathname).toBe('/');
    expect(window.history.length).toBe(before);
    expect(where()).toBe('/');
  });
});

function JoinParam() {
  const [params, setParams] = useSearchParams();
  const seen = useAppLocation();
  return (
    <>
      <p data-testid="where">{`${seen.pathname}${seen.search}`}</p>
      <p data-testid="join">{params.get('join') ?? 'none'}</p>
      <button type="button" onClick={() => setParams({}, { replace: true })}>
        Clear
      </button>
      <button type="button" onClick={() => setParams({ join: 'ABCDE' })}>
        Set
      </button>
    </>
  );
}

/** Every parameters object `Probe` was given, render by render. */
const seen: URLSearchParams[] = [];
function Probe({ n }: { n: number }) {
  const [params] = useSearchParams();
  seen.push(params);
  return <p>{n}</p>;
}

/** The page as it is opened from a join link for NEWCO: the code is read, then cleared to `/`. */
function openAndClearJoinLink() {
  render(
    <BrowserRouter>
      <JoinParam />
    </BrowserRouter>,
  );
  expect(screen.getByTestId('join').textContent).toBe('NEWCO');
  fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
  expect(screen.getByTestId('join').textContent).toBe('none');
  expect(window.location.pathname + window.location.search).toBe('/');
}

describe('useSearchParams: the join link', () => {
  it('reads the parameter, and clears it without a history entry', () => {
    window.history.replaceState(null, '', '/?join=NEWCO');
    const before = window.history.length;
    openAndClearJoinLink();
    expect(window.history.length).toBe(before);
    fireEvent.click(screen.getByRole('button', { name: 'Set' }));
    expect(window.location.search).toBe('?join=ABCDE');
    expect(window.history.length).toBe(before + 1);
  });

  it('a join link whose path has a doubled slash (https://host//?join=…) clears its code like any other', () => {
    // new URL('//', …) is another host: the router threw 'Invalid URL' (the review of session 35).
    window.history.replaceState(null, '', `${window.location.origin}//?join=NEWCO`);
    openAndClearJoinLink();
  });

  it('keeps the same parameters object while the query is the same (effects that depend on it run once)', () => {
    seen.length = 0;
    const { rerender } = render(
      <MemoryRouter initialEntry="/?join=NEWCO">
        <Probe n={1} />
      </MemoryRouter>,
    );
    rerender(
      <MemoryRouter initialEntry="/?join=NEWCO">
        <Probe n={2} />
      </MemoryRouter>,
    );
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(new Set(seen).size).toBe(1);
    expect(seen[0]?.get('join')).toBe('NEWCO');
  });

  it('MemoryRouter starts where it is told and follows its own navigations', () => {
    render(
      <MemoryRouter initialEntry="/faq?join=AB">
        <JoinParam />
      </MemoryRouter>,
    );
    expect(where()).toBe('/faq?join=AB');
    fireEvent.click(screen.getByRole('button', { name: 'Set' }));
    expect(where()).toBe('/faq?join=ABCDE');
    expect(window.location.pathname).toBe('/');
  });
});

describe('outside a router', () => {
  it('a link says what is wrong instead of rendering a dead anchor', () => {
    expect(() => render(<Link to="/faq">FAQ</Link>)).toThrow('A route was rendered outside a router.');
  });
});

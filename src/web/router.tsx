import {
  type AnchorHTMLAttributes,
  createContext,
  type MouseEvent,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';

/**
 * The app's router: three routes (`/`, `/about`, `/faq`) and the join link's `?join=` parameter.
 *
 * react-router did this until session 35 and was 15.5 KB gzipped of the landing's first load, whose
 * budget is 110 KB (src/web/README.md, "Budget"; the load had reached 109.8 KB): the app used its
 * BrowserRouter, Routes, Navigate, Link and useSearchParams, and none of its data loading. What it did
 * for the app is kept: paths match without regard to case or a trailing slash, a plain click on a
 * link navigates in the page (a click with a modifier key or another button is the browser's), Back and
 * Forward re-render the route, and search parameters are set with or without a history entry.
 */

/** Where the app is: the path and the query string (with its `?`, or empty). */
export interface AppLocation {
  pathname: string;
  search: string;
}

interface RouterValue {
  location: AppLocation;
  navigate: (to: string, options?: { replace?: boolean }) => void;
  /**
   * Goes back one history entry when that entry is `to` itself, the app having navigated from there to
   * here; true when it did, false when `to` is not known to be the entry before (then navigate).
   */
  backTo: (to: string) => boolean;
}

/** What the app's own history entries hold (`history.state`): where it navigated from to make them. */
interface EntryState {
  chiplessFrom: string;
}

const RouterContext = createContext<RouterValue | null>(null);

function useRouter(): RouterValue {
  const router = useContext(RouterContext);
  if (!router) throw new Error('A route was rendered outside a router.');
  return router;
}

/** Leading slashes as one: `//` at the start of a URL is another host ("//?join=…" threw 'Invalid URL'). */
const oneLeadingSlash = (path: string) => path.replace(/^\/{2,}/, '/');

/** `to` resolved against `from`: a path, a query or both (the app's links are all same-origin). */
function resolve(to: string, from: AppLocation): AppLocation & { hash: string } {
  const url = new URL(oneLeadingSlash(to), `http://app${oneLeadingSlash(from.pathname)}${from.search}`);
  return { pathname: url.pathname, search: url.search, hash: url.hash };
}

function at(to: string, from: AppLocation): AppLocation {
  const { pathname, search } = resolve(to, from);
  return { pathname, search };
}

function browserLocation(): AppLocation {
  return { pathname: window.location.pathname, search: window.location.search };
}

/** The router of the page itself: its address bar and history. */
export function BrowserRouter({ children }: { children: ReactNode }) {
  const [location, setLocation] = useState(browserLocation);
  // Set while a `back` link's history.back() has not landed yet (it lands a few ms later, at popstate;
  // up to ~65 ms on a slow phone): a second tap meanwhile would find the entry still saying it came
  // from there and go back again, out of the site (session 38's review). Cleared on pageshow too: a
  // back() that left the document never sees its popstate here, and the page may be restored later.
  const goingBack = useRef(false);
  useEffect(() => {
    const onPop = () => {
      goingBack.current = false;
      setLocation(browserLocation());
    };
    const onShow = () => {
      goingBack.current = false;
    };
    window.addEventListener('popstate', onPop);
    window.addEventListener('pageshow', onShow);
    return () => {
      window.removeEventListener('popstate', onPop);
      window.removeEventListener('pageshow', onShow);
    };
  }, []);
  const navigate = useCallback((to: string, options?: { replace?: boolean }) => {
    const from = browserLocation();
    const { hash, ...next } = resolve(to, from);
    const url = `${next.pathname}${next.search}${hash}`;
    if (options?.replace) window.history.replaceState(window.history.state, '', url);
    else {
      const state: EntryState = { chiplessFrom: `${routePath(from.pathname)}${from.search}` };
      window.history.pushState(state, '', url);
      // A new page opens at its top, as a page the browser loaded would.
      window.scrollTo(0, 0);
    }
    setLocation(next);
  }, []);
  const backTo = useCallback((to: string) => {
    const state = window.history.state as Partial<EntryState> | null;
    const target = resolve(to, browserLocation());
    if (goingBack.current) return true;
    if (state?.chiplessFrom !== `${routePath(target.pathname)}${target.search}`) return false;
    goingBack.current = true;
    window.history.back();
    return true;
  }, []);
  const value = useMemo(() => ({ location, navigate, backTo }), [location, navigate, backTo]);
  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

/** A router with no address bar (tests): starts at `initialEntry`, remembers where it went. */
export function MemoryRouter({
  initialEntry = '/',
  children,
}: {
  initialEntry?: string;
  children: ReactNode;
}) {
  const [location, setLocation] = useState(() => at(initialEntry, { pathname: '/', search: '' }));
  const navigate = useCallback((to: string) => setLocation((from) => at(to, from)), []);
  const value = useMemo(() => ({ location, navigate, backTo: () => false }), [location, navigate]);
  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

/** The current location. */
export function useAppLocation(): AppLocation {
  return useRouter().location;
}

/** The path in the form routes are named: lower case, no trailing slash (`/About/` is `/about`). */
export function routePath(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, '');
  return (trimmed || '/').toLowerCase();
}

/** Goes to `to` without a history entry once rendered (an unknown path goes home). */
export function Redirect({ to }: { to: string }) {
  const { navigate } = useRouter();
  useEffect(() => navigate(to, { replace: true }), [navigate, to]);
  return null;
}

/**
 * The query's parameters, and a setter that replaces them all (`replace`: no new history entry).
 * The parameters object is the same between renders while the query is.
 */
export function useSearchParams(): [
  URLSearchParams,
  (next: Record<string, string>, options?: { replace?: boolean }) => void,
] {
  const { location, navigate } = useRouter();
  const params = useMemo(() => new URLSearchParams(location.search), [location.search]);
  const pathname = location.pathname;
  const setParams = useCallback(
    (next: Record<string, string>, options?: { replace?: boolean }) => {
      const query = new URLSearchParams(next).toString();
      navigate(`${pathname}${query ? `?${query}` : ''}`, options);
    },
    [navigate, pathname],
  );
  return [params, setParams];
}

/**
 * A link within the app: a plain click navigates in the page; anything else is the browser's.
 * `back`: when the app came to this page from `to`, the click goes back to that entry instead of
 * adding another (the static pages' Back: a host who read the FAQ before starting a game had `/`,
 * `/faq`, `/` behind the table, and the phone's own Back at the table opened the FAQ; the history
 * audit of session 38).
 */
export function Link({
  to,
  back = false,
  onClick,
  children,
  ...rest
}: { to: string; back?: boolean } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  const { navigate, backTo } = useRouter();
  const click = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || rest.target) return;
    if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    if (back && backTo(to)) return;
    navigate(to);
  };
  return (
    <a href={to} onClick={click} {...rest}>
      {children}
    </a>
  );
}

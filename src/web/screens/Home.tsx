import { type ComponentType, lazy, Suspense, useEffect, useLayoutEffect, useRef } from 'react';
import { ROOM_CODE_LENGTH } from '../../shared/limits';
import { screenCovered, useAnnounced } from '../components/announcer';
import { OnlineContext } from '../components/forms';
import { usePageMeta } from '../components/use-page-meta';
import { reloadForNewBuild } from '../net/new-build';
import { storage } from '../net/storage';
import { type RoomApi, useRoom } from '../net/use-room';
import { useSearchParams } from '../router';
import { common, joinLink, seatLinkOpened } from '../texts';
import { Landing } from './Landing';
import { normaliseRoomCode } from './RoomForms';
import { useSeatLinkParam } from './use-seat-link-param';

// The in-room screens are split from the landing's first load; a browser that sits in a room
// (remembered code) starts fetching them at once, in parallel with the socket's handshake.
/**
 * An in-room screen, loaded apart from the landing: `preload` starts loading it, `Lazy` renders it.
 * Once the module is there, `Lazy`'s first render has it at once. A React.lazy component suspends its
 * first render even when the import has long finished (the promise answers a microtask later), and
 * React then keeps the fallback ("Getting back to your game…") up for at least 300 ms: every guest
 * saw it flash when the host started the game (the session-31 audit). A thenable that answers at once
 * is taken as loaded by React.lazy.
 */
function roomScreen<P extends object>(load: () => Promise<ComponentType<P>>) {
  let loaded: ComponentType<P> | null = null;
  const preload = () =>
    load().then((screen) => {
      loaded = screen;
      return screen;
    });
  const Lazy = lazy(() => {
    const screen = loaded;
    // A file gone with a server upgrade: the page reloads into the new build (new-build.ts), and the
    // screen waits for it ("Opening the game…") rather than show the error screen.
    if (screen === null)
      return preload().then(
        (s) => ({ default: s }),
        (err: unknown) =>
          reloadForNewBuild().then((reloading) =>
            reloading ? new Promise<never>(() => {}) : Promise.reject(err),
          ),
      );
    const ready: PromiseLike<{ default: ComponentType<P> }> = {
      // biome-ignore lint/suspicious/noThenProperty: a thenable React.lazy reads as loaded is the point.
      then: (resolve) => Promise.resolve(resolve?.({ default: screen })) as never,
    };
    return ready as Promise<{ default: ComponentType<P> }>;
  });
  return { preload, Lazy };
}

/** A whole room code (what normaliseRoomCode keeps of a link is at most this). */
const ROOM_CODE = new RegExp(`^[A-Z0-9]{${ROOM_CODE_LENGTH}}$`);

const lobbyScreen = roomScreen(() => import('./Lobby').then((m) => m.Lobby));
const tableScreen = roomScreen(() => import('./Table').then((m) => m.Table));
const gameOverScreen = roomScreen(() => import('./GameOver').then((m) => m.GameOver));
const Lobby = lobbyScreen.Lazy;
const Table = tableScreen.Lazy;
const GameOver = gameOverScreen.Lazy;

/** Starts loading the in-room screens (after creating or joining, or when resuming). */
export function preloadRoomScreens(): Promise<unknown> {
  return Promise.all([lobbyScreen.preload(), tableScreen.preload(), gameOverScreen.preload()]).catch(
    () => {},
  );
}

if (typeof window !== 'undefined' && storage.roomCode()) preloadRoomScreens();

/** A spinner screen saying `text` (a status, read out). */
const waitingScreen = (text: string) => (
  <main className="screen centered">
    <div className="spinner" aria-hidden="true" />
    <p role="status">{text}</p>
  </main>
);
const resumingScreen = waitingScreen(common.resuming);
/** While a seat link is claimed, and its room then opened (the seat's room resuming). */
const takingSeatScreen = waitingScreen(seatLinkOpened.taking);
/**
 * While a room screen's code loads: after Create Room it flashed "Getting back to your game…" for a
 * game just made (the session-31 audit); the forms now start loading it when they open, so it rarely shows.
 */
const loadingScreen = waitingScreen(common.loadingRoom);

/**
 * A link's notice above the screen (a join or seat link this phone cannot follow now), with Dismiss. A
 * named region (a labelled section), not a live one: the announcer says it as it shows (useAnnounced:
 * a live region created with its text is often not read), and a `status` here too was read twice by
 * screen readers that do read such a region (the session-39 review).
 */
function LinkNotice({ label, text, onDismiss }: { label: string; text: string; onDismiss: () => void }) {
  return (
    <section className="notice link-notice" aria-label={label}>
      <p>{text}</p>
      <button type="button" className="button ghost small" onClick={onDismiss}>
        {common.dismiss}
      </button>
    </section>
  );
}

/** Route "/": opens the realtime connection and shows landing, lobby, table or game over. */
export default function Home() {
  usePageMeta('/');
  const api = useRoom();
  return <HomeView api={api} />;
}

/** The home screen for a given connection state (separate from the socket, so tests can drive it). */
export function HomeView({ api }: { api: RoomApi }) {
  const [params, setParams] = useSearchParams();
  const joinCode = params.get('join');
  const { snapshot, playerId } = api;

  // A join link has done its job once we sit in its room. A game that is over is no seat: a link to
  // the next game (scanned while this phone still shows the last results) waits for "Back to Home".
  // A link to another room than the one this phone sits in waits too, and says so: Bob, seated in
  // Ann's lobby, tapped the link Cat sent for hers and saw Ann's lobby, the link dropped without a
  // word. Joining Cat's room as he is would leave his seat at Ann's behind, taken and offline; he
  // leaves it first (or dismisses the link), and then the join form opens with Cat's code.
  // Only a whole code is a link to another game: "?join=zz" (a link cut short) is dropped as before.
  const seated = !!snapshot && snapshot.room.status !== 'ENDED';
  const linked = joinCode === null ? '' : normaliseRoomCode(joinCode);
  const elsewhere = snapshot !== null && ROOM_CODE.test(linked) && linked !== snapshot.room.roomCode;
  useEffect(() => {
    if (seated && !elsewhere && params.has('join')) setParams({}, { replace: true });
  }, [seated, elsewhere, params, setParams]);
  const linkNotice =
    snapshot && elsewhere
      ? seated
        ? joinLink.seated(linked, snapshot.room.roomCode)
        : joinLink.afterResults(linked)
      : null;
  // Said as it shows, the page's first render included: its status region comes with its text (often
  // not read), outside the screen's main, and the arrival focus goes to the screen's heading (the
  // session-39 review).
  useAnnounced(linkNotice, linkNotice ?? '', { onMount: true });

  const seatLink = useSeatLinkParam(api, preloadRoomScreens);
  const { takingSeat } = seatLink;

  // A new screen opens at its top (the session-33 review: the page kept the lobby's scroll, so the table
  // opened with its stage cut off, and the game over on Rankings, the settlements above the screen).
  const screenKind = snapshot ? snapshot.room.status : api.resuming ? 'resuming' : 'landing';
  const shownKind = useRef(screenKind);
  useLayoutEffect(() => {
    if (shownKind.current === screenKind) return;
    shownKind.current = screenKind;
    window.scrollTo(0, 0);
  }, [screenKind]);

  const online = api.connection === 'online';
  const reconnecting = api.connection === 'offline';
  // The banner's live region is in the page before its text (one created with its text is often not
  // read); under a dialog #root is inert, so the announcer outside it says it (announcer.ts).
  useAnnounced(
    reconnecting ? 'offline' : null,
    snapshot ? `${common.reconnecting} ${common.reconnectingHint}` : common.reconnecting,
    { onlyIf: screenCovered },
  );
  let screen: React.ReactNode;
  if (takingSeat) {
    screen = takingSeatScreen;
  } else if (snapshot) {
    const status = snapshot.room.status;
    if (status === 'PLAYING')
      screen = (
        <Table
          snapshot={snapshot}
          me={playerId}
          send={api.send}
          onLeave={api.leave}
          online={online}
          seatLink={api.seatLink}
          onHandBack={api.seatRoom === snapshot.room.roomCode ? api.handBack : undefined}
        />
      );
    else if (status === 'ENDED')
      screen = (
        <GameOver
          room={snapshot.room}
          me={playerId}
          onHome={api.goHome}
          byLink={api.seatRoom === snapshot.room.roomCode}
        />
      );
    else
      screen = (
        <Lobby snapshot={snapshot} me={playerId} send={api.send} onLeave={api.leave} online={online} />
      );
  } else if (api.resuming) {
    screen = resumingScreen;
  } else {
    screen = (
      <Landing
        onCreate={(name, chips) => {
          preloadRoomScreens();
          return api.createRoom(name, chips);
        }}
        onJoin={(code, name, chips) => {
          preloadRoomScreens();
          return api.joinRoom(code, name, chips);
        }}
        joinCode={joinCode}
        onFormOpen={preloadRoomScreens}
        notice={seatLink.landingError ?? api.notice}
        onDismissNotice={seatLink.landingError !== null ? seatLink.dismissLandingError : api.dismissNotice}
        onJoinLinkClosed={() => setParams({}, { replace: true })}
        lastResults={api.lastResults}
        onOpenLastResults={() => {
          preloadRoomScreens();
          api.openLastResults();
        }}
      />
    );
  }

  return (
    <>
      <div className={reconnecting ? 'reconnecting' : 'sr-only'} role="status" id="connection-status">
        {reconnecting ? (
          <>
            <span className="spinner small" aria-hidden="true" />
            <span>
              <strong>{common.reconnecting}</strong>
              {snapshot ? <span className="reconnecting-hint"> {common.reconnectingHint}</span> : null}
            </span>
          </>
        ) : null}
      </div>
      {linkNotice !== null ? (
        <LinkNotice
          label={joinLink.label}
          text={linkNotice}
          onDismiss={() => setParams({}, { replace: true })}
        />
      ) : null}
      {seatLink.notice !== null ? (
        <LinkNotice label={seatLinkOpened.label} text={seatLink.notice} onDismiss={seatLink.dismissNotice} />
      ) : null}
      <OnlineContext.Provider value={online}>
        <Suspense fallback={api.resuming ? resumingScreen : loadingScreen}>{screen}</Suspense>
      </OnlineContext.Provider>
    </>
  );
}

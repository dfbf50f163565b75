import { useCallback, useEffect, useRef, useState } from 'react';
import { isInRoom } from '../../engine';
import { useAnnounced } from '../components/announcer';
import { NO_CONNECTION_ERROR } from '../net/client';
import type { RoomApi } from '../net/use-room';
import { useSearchParams } from '../router';
import { seatLinkOpened } from '../texts';

/** What the home screen shows of a seat link in its address (useSeatLinkParam). */
export interface SeatLinkParam {
  /** "Taking your seat…" in place of the screen: the claim is asked, or its room is opening. */
  takingSeat: boolean;
  /** The notice above the screen (a phone in a game, or a refusal over the last results), or null. */
  notice: string | null;
  dismissNotice: () => void;
  /** A refusal to show on the landing (its notice slot), or null. */
  landingError: string | null;
  dismissLandingError: () => void;
}

/**
 * The `?seat=` of the home screen's address: the link a host made with "Move Bob to a New Phone"
 * (SeatLinkModal.tsx), opened on this phone. Split from Home.tsx, which picks the screen; this decides
 * when the phone claims the seat (RoomApi's claimSeat) and what it says when it cannot. `preload`:
 * starts loading the room screens as the claim goes out.
 */
export function useSeatLinkParam(api: RoomApi, preload: () => void): SeatLinkParam {
  const [params, setParams] = useSearchParams();
  const { snapshot, playerId } = api;
  // In a game still on (a game that is over is no seat, as for a join link: Home.tsx).
  const seated = !!snapshot && snapshot.room.status !== 'ENDED';
  const online = api.connection === 'online';

  // A seat link (`?seat=`, the host's "Move Bob to a New Phone"): this phone takes the seat of a player
  // whose phone is away, once it is connected and knows it sits in no game (a remembered room is
  // resumed first: it may turn out gone). A phone in a game still on keeps its seat and says so, as a
  // join link to another game does: taking Bob's seat would leave its own player's seat behind,
  // offline; unless the link names this phone's own seat, which it then is already. The link's first
  // two parts are its room and player ("ABCDE.<playerId>.<linkId>.<expiry>.<signature>"), read here only to
  // compare; the server checks the rest. Claimed once a link (a ref: StrictMode runs effects twice),
  // and the link goes from the address once answered, without a history entry.
  const seatToken = params.get('seat');
  const [linkRoom, linkPlayer] = seatToken?.split('.') ?? [];
  const ownSeat =
    seatToken !== null && seated && linkPlayer === playerId && linkRoom === snapshot.room.roomCode;
  // Only asking to join the link's own game (Bob, his phone flat, asked to join again on the phone he
  // borrowed, before the host made him the link): the request is no seat, so it is given up (a leave)
  // and the link then takes Bob's. A request to another game stays, with the notice below.
  const pendingHere =
    seatToken !== null &&
    seated &&
    !ownSeat &&
    linkRoom === snapshot.room.roomCode &&
    playerId !== null &&
    isInRoom(snapshot.room, playerId) &&
    snapshot.room.players[playerId]?.isApproved === false;
  const seatElsewhere = seatToken !== null && seated && !ownSeat && !pendingHere;
  const wantsSeat = seatToken !== null && !seated;
  const [claim, setClaim] = useState<'none' | 'asking' | 'taken'>('none');
  const [seatError, setSeatError] = useState<string | null>(null);
  const claimedRef = useRef<string | null>(null);
  const paramsRef = useRef(params);
  paramsRef.current = params;
  const dropSeat = useCallback(() => {
    const rest = [...paramsRef.current].filter(([key]) => key !== 'seat');
    setParams(Object.fromEntries(rest), { replace: true });
  }, [setParams]);
  const { claimSeat, resuming, leave } = api;
  const withdrawnRef = useRef<string | null>(null);
  useEffect(() => {
    if (!pendingHere || !online || withdrawnRef.current === seatToken) return;
    withdrawnRef.current = seatToken;
    void leave();
  }, [pendingHere, online, seatToken, leave]);
  useEffect(() => {
    if (seatToken === null || seated || resuming || !online || claimedRef.current === seatToken) return;
    claimedRef.current = seatToken;
    preload();
    setClaim('asking');
    setSeatError(null);
    void claimSeat(seatToken).then((res) => {
      if (!res.ok && res.error === NO_CONNECTION_ERROR) {
        // No answer (a blip on the borrowed phone): nothing says the link is bad. It stays in the
        // address, "Taking your seat…" under "Reconnecting…", and is asked again once back online;
        // dropped, it was gone, the QR code or the chat to find again.
        claimedRef.current = null;
        setClaim('none');
        return;
      }
      dropSeat();
      setClaim(res.ok ? 'taken' : 'none');
      if (res.ok) return;
      // Opened again (the same link, once the connection is back): asked again.
      claimedRef.current = null;
      setSeatError(res.error);
    });
  }, [seatToken, seated, resuming, online, claimSeat, dropSeat, preload]);
  useEffect(() => {
    if (ownSeat) dropSeat();
  }, [ownSeat, dropSeat]);
  // The seat's room opened (or its resume refused, with use-room's notice): the claim is over. A
  // refusal shown on the landing goes once this phone is in a game.
  useEffect(() => {
    if (!resuming) setClaim((c) => (c === 'taken' ? 'none' : c));
  }, [resuming]);
  useEffect(() => {
    if (seated) setSeatError(null);
  }, [seated]);
  const takingSeat =
    claim === 'asking' || (claim === 'taken' && resuming) || (wantsSeat && !resuming) || pendingHere;
  // Another player's seat at this very table (Cal opens Bob's link): whose it is, not "leave first".
  const seatHolder =
    seatElsewhere && linkRoom === snapshot.room.roomCode && linkPlayer && isInRoom(snapshot.room, linkPlayer)
      ? snapshot.room.players[linkPlayer]
      : undefined;
  const seatNotice = seatElsewhere
    ? seatHolder
      ? seatLinkOpened.sameGame(seatHolder.name)
      : api.seatRoom === snapshot.room.roomCode
        ? seatLinkOpened.seatedByLink(snapshot.room.roomCode)
        : seatLinkOpened.seated(snapshot.room.roomCode)
    : snapshot && !takingSeat
      ? seatError
      : null;
  useAnnounced(seatNotice, seatNotice ?? '', { onMount: true });
  return {
    takingSeat,
    notice: seatNotice,
    dismissNotice: () => (seatElsewhere ? dropSeat() : setSeatError(null)),
    landingError: seatError,
    dismissLandingError: () => setSeatError(null),
  };
}

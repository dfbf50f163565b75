/**
 * What the table tells phones about moments of the hand, read from the room and its log: a fold
 * win's overlay, the host's undo and what was done for a player while away (table notices), an
 * all-in showdown's board still to deal (Table.tsx shows them).
 */
import { useEffect, useRef, useState } from 'react';
import { formatCents, takenBack } from '../../engine';
import type { LoggedEvent, Room, Stage } from '../../engine/types';
import { describeEvent } from '../game/log-lines';
import { playersInHand } from '../game/view';
import { tableNotices as notices, table } from '../room-texts';

/**
 * When the last hand ended because everyone else folded: the winner and what they took. A fold the
 * host took back won nothing: its award is not counted, nor does it name the win (the engine's takenBack).
 * What they took is the pot as every screen showed it: the award and the part of their own bet nobody
 * called, which comes back to them (session 29: "wins! $2.50" under a pot of $4.50 started arguments).
 */
function foldWin(room: Room): { key: string; name: string; amount: number } | null {
  const gs = room.gameState;
  if (gs.stage !== 'SHOWDOWN' || gs.winnerIds.length === 0) return null;
  const left = playersInHand(room);
  if (left.length !== 1) return null;
  const undone = takenBack(room.log);
  const awards = room.log.filter(
    (e): e is Extract<LoggedEvent, { type: 'potAwarded' }> =>
      e.type === 'potAwarded' && e.reason === 'FOLD' && e.handNumber === gs.handNumber && !undone(e),
  );
  if (awards.length === 0) return null;
  const winner = left[0]!;
  return {
    key: `${gs.handNumber}-${awards[0]!.seq}`,
    name: winner.name,
    amount: awards.reduce((sum, e) => sum + e.amount, returnedWithFoldWin(room.log, awards[0]!)),
  };
}

/**
 * The winner's own bet nobody called that came back with a fold win: the engine returns it just before
 * the win's first award (winByFold), so it is the event right before that award, when it is one. A bet
 * returned earlier (at a showdown reached before the last opponent left) was never in the pot the table
 * showed: counting every return of the hand said "Won $41.00" of a $21.00 pot (session 34's review).
 */
function returnedWithFoldWin(
  log: readonly LoggedEvent[],
  firstAward: Extract<LoggedEvent, { type: 'potAwarded' }>,
): number {
  const before = log[log.indexOf(firstAward) - 1];
  return before?.type === 'betReturned' && before.playerId === firstAward.winners[0]?.playerId
    ? before.amount
    : 0;
}

/**
 * What each winner of the hand on the table took, in cents, read from the log as the fold win's overlay
 * reads it (foldWin): their shares of the pots awarded in this hand, and for a fold win the part of
 * their own bet nobody called, which came back with the pot (the overlay's "wins! $4.50" and the seat's
 * "Won $4.50" agree; returnedWithFoldWin). An uncalled bet returned before a showdown is not counted:
 * the showdown's pot never held it. Awards the host took back do not count. Empty until the hand is over; a winner the log
 * no longer covers is absent (the seat then shows only the winner tag).
 */
export function handWinnings(room: Room): Map<string, number> {
  const gs = room.gameState;
  const won = new Map<string, number>();
  if (gs.winnerIds.length === 0) return won;
  const undone = takenBack(room.log);
  let firstFoldAward: Extract<LoggedEvent, { type: 'potAwarded' }> | null = null;
  for (const e of room.log) {
    if (e.type !== 'potAwarded' || e.handNumber !== gs.handNumber || undone(e)) continue;
    if (e.reason === 'FOLD') firstFoldAward ??= e;
    for (const w of e.winners)
      if (gs.winnerIds.includes(w.playerId)) won.set(w.playerId, (won.get(w.playerId) ?? 0) + w.amount);
  }
  const winner = firstFoldAward?.winners[0]?.playerId;
  if (firstFoldAward && winner !== undefined && won.has(winner))
    won.set(winner, won.get(winner)! + returnedWithFoldWin(room.log, firstFoldAward));
  return won;
}

/**
 * What the hand on the table awarded, for a screen reader (Table.tsx says it through the announcer once
 * it comes): a fold win in the overlay's words ("Ann wins! $3.00"), a showdown as the hand log has it
 * ("Pot $12.00 to Ann", "Side pot 1 $4.00 to Bob"). The seats show it to the eye, but nothing read it
 * out, and the overlay's region appeared with its text, which is often not read (session 36's
 * accessibility audit). Null until the hand has an award; awards the host took back do not count.
 */
export function handResult(room: Room): { key: string; text: string } | null {
  const gs = room.gameState;
  if (gs.winnerIds.length === 0) return null;
  const win = foldWin(room);
  if (win) return { key: win.key, text: `${table.autoWinner(win.name)} ${formatCents(win.amount)}` };
  const undone = takenBack(room.log);
  const awards = room.log.filter(
    (e) => e.type === 'potAwarded' && e.handNumber === gs.handNumber && !undone(e),
  );
  const newest = awards[awards.length - 1];
  if (!newest) return null;
  const lines = awards.map((e) => describeEvent(e, room.log)).filter((l): l is string => l !== null);
  return { key: `${gs.handNumber}-${newest.seq}`, text: lines.join('. ') };
}

/**
 * The automatic winner animation: when a single player is left in the hand, it starts after
 * 500 ms and plays for about 3 s, once per win.
 */
export function useFoldWinAnimation(room: Room) {
  const win = foldWin(room);
  const [shown, setShown] = useState<typeof win>(null);
  const key = win?.key ?? null;
  // Wins already played, and one that was already on the table when this screen opened (a reload):
  // not played again. The host undoing the next New Hand brings the same win back to the table.
  const played = useRef<Set<string | null>>(null);
  played.current ??= new Set([key]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on the award, not on every snapshot.
  useEffect(() => {
    if (!key || !win || played.current?.has(key)) return;
    const start = setTimeout(() => {
      played.current?.add(key);
      setShown(win);
    }, 500);
    const stop = setTimeout(() => setShown(null), 3500);
    return () => {
      clearTimeout(start);
      clearTimeout(stop);
      // The award is gone (the next hand was dealt within the 3 s): so is its overlay, which the
      // cleared `stop` would otherwise never hide.
      setShown(null);
    };
  }, [key]);
  return shown;
}

/**
 * What a phone is told of a change made to the table over its head, or null: the host's undo, on
 * every phone ("Undone by the host: Pot $6.00 to Bob": stacks change, and a change nobody is told
 * about reads as the app losing chips; the host audit of session 29), and on the one player's own
 * phone what someone else did for or to them: a check or fold the host made for them, the host
 * sitting them out or bringing them back, the host role taken over from them while they were away, or
 * handed to them. Without it a player whose phone was away came back to a folded seat, or a host to a
 * table without their controls, with only a line in the closed hand log (the session-31 audit).
 */
function tableNoticeOf(
  e: LoggedEvent,
  me: string | null,
  handNumber: number,
  log: readonly LoggedEvent[] = [],
): string | null {
  switch (e.type) {
    case 'undone':
      return describeEvent(e, log);
    case 'playerActed':
      // A fold in a hand long over, told to a phone back after several hands, would read as this one.
      if (!e.byHost || e.playerId !== me || e.handNumber !== handNumber) return null;
      return e.action === 'FOLD' ? notices.foldedForYou : notices.checkedForYou;
    case 'sitOutChanged':
      if (!e.byHost || e.playerId !== me) return null;
      return e.away ? notices.satYouOut : notices.broughtYouBack;
    case 'hostChanged':
      if (e.fromId === me && e.claimed) return notices.tookOverFromYou(e.name);
      if (e.playerId === me && !e.claimed) return notices.madeYouHost(e.fromName);
      return null;
    default:
      return null;
  }
}

/** Events of play: once one follows an undo, the table has moved on from what the undo's notice tells. */
const PLAY = new Set<LoggedEvent['type']>([
  'playerActed',
  'stageChanged',
  'potAwarded',
  'handStarted',
  'rebuy',
]);

/**
 * The newest table notice (tableNoticeOf) for 6 s once it reaches this phone. One already on the log
 * when the screen opened (a reload) is not told again. An undo's notice goes as soon as the table plays
 * on: "Undone by the host: Ann calls $12.49 (all-in)" stood over the same call made again at once (the
 * session-32 audit).
 */
export function useTableNotice(room: Room, me: string | null): string | null {
  let last: { seq: number; text: string; undo: boolean } | null = null;
  // Not findLast: older than the browser floor (browser-support.test.ts).
  for (let i = room.log.length - 1; i >= 0 && last === null; i--) {
    const e = room.log[i] as LoggedEvent;
    const text = tableNoticeOf(e, me, room.gameState.handNumber, room.log);
    if (text !== null) last = { seq: e.seq, text, undo: e.type === 'undone' };
  }
  const seq = last?.seq ?? null;
  const seen = useRef<number | null | undefined>(undefined);
  if (seen.current === undefined) seen.current = seq;
  const [shown, setShown] = useState<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on the notice's seq, not every snapshot.
  useEffect(() => {
    // Only one newer than any told: once a fold of an earlier hand stops counting, an older undo is
    // the newest notice again, and was told already.
    if (seq === null || last === null || (seen.current != null && seq <= seen.current)) return;
    seen.current = seq;
    setShown(last.text);
    const stop = setTimeout(() => setShown(null), TABLE_NOTICE_MS);
    return () => clearTimeout(stop);
  }, [seq]);
  if (shown !== null && seq !== null && last?.undo && room.log.some((e) => e.seq > seq && PLAY.has(e.type)))
    return null;
  return shown;
}

/** How long a phone shows a table notice. */
const TABLE_NOTICE_MS = 6_000;

/**
 * The stage the betting of this hand last reached before a showdown it jumped to (the all-in cases:
 * `autoAdvancedReason`), from the hand log: the board on the real table has that stage's cards, not
 * the five the header shows for a showdown. Null when the log no longer holds the hand's start.
 */
export function stageReached(room: Room): Exclude<Stage, 'SHOWDOWN'> | null {
  const hand = room.gameState.handNumber;
  for (let i = room.log.length - 1; i >= 0; i--) {
    const e = room.log[i] as LoggedEvent;
    if (e.handNumber !== hand) return null;
    if (e.type === 'stageChanged' && e.stage !== 'SHOWDOWN') return e.stage;
    if (e.type === 'handStarted') return 'PRE_FLOP';
  }
  return null;
}

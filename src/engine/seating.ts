/** Seating, the engine's own (the spec has neither): where the players sit, and who sits out. */
import { type Draft, edit, emit, playerById } from './draft';
import { betweenHands } from './hand';
import { type Outcome, UNCHANGED } from './lobby';
import { MSG } from './messages';
import { seatIds } from './room';
import type { Player } from './types';

/**
 * arrangeSeats (the engine's own; the spec seats players in the order they joined): the host puts the
 * players at the table in the order they really sit, clockwise. The app's order decides who deals, who
 * posts the blinds and who acts next, so it has to be the table's; friends join from their phones in
 * whatever order their phones were ready.
 *
 * - Only the host, in the lobby or between hands (at the showdown with every pot awarded, where New
 *   Hand is possible): never while a hand is being played, whose turn order follows the seats.
 * - `playerIds` is every player at the table (approved), each once, clockwise. A list that is not
 *   exactly them (someone joined, left or was approved since the host's phone drew the dialog) is
 *   refused and changes nothing; the same order as now changes nothing and logs nothing.
 * - The seats themselves are the players' `joinedAt` values (seats.ts: clockwise is increasing
 *   joinedAt): the same values, dealt out again in the new order, so every rule that reads seats
 *   (the button, the blinds, the turn, the odd cent of a split pot, a newcomer's seat after everyone)
 *   works unchanged. Players waiting for approval move behind the table, in the order they asked, so
 *   once approved they sit after the arranged players, as a newcomer does.
 * - Between hands the button stays with the player who dealt the last hand (`dealerSeat` follows
 *   them to their new seat), so New Hand moves it to whoever now sits on their left. When that dealer
 *   has left the table, New Hand gives it to whoever sat on their left (the departed dealer's seat
 *   becomes half a seat before that player's new one, a seat nobody holds), however the host's list
 *   starts the circle and however often the host arranges.
 * - It changes no chips. It clears the undo point (undo.ts): an undo restores fields of the hand
 *   before, not the seats.
 */
export function arrangeSeats(d: Draft, actorId: string, playerIds: string[]): Outcome | typeof UNCHANGED {
  if (actorId !== d.room.hostId) return MSG.onlyHostSeats;
  if (d.room.status === 'ENDED') return MSG.gameEnded;
  if (d.room.status === 'PLAYING' && !betweenHands(d.gs)) return MSG.seatsBetweenHands;
  if (!Array.isArray(playerIds) || !playerIds.every((id) => typeof id === 'string'))
    return MSG.unknownCommand;
  const now = seatIds(d);
  const wanted = new Set(playerIds);
  if (
    playerIds.length !== now.length ||
    wanted.size !== now.length ||
    !playerIds.every((id) => playerById(d.players, id)?.isApproved === true)
  )
    return MSG.seatsPlayersChanged;
  // The same order changes nothing, unless a stranger waits between two seats (they asked before a
  // player the host approved first): the host has confirmed the table, and they move behind it.
  const lastSeat = (d.players[now[now.length - 1] as string] as Player).joinedAt;
  const strangerAmongSeats = Object.values(d.players).some((p) => !p.isApproved && p.joinedAt < lastSeat);
  if (playerIds.every((id, i) => id === now[i]) && !strangerAmongSeats) return UNCHANGED;

  // The seats as they are (increasing), dealt out again in the new order.
  const seats = now.map((id) => (d.players[id] as Player).joinedAt);
  const lastDealerSeat = d.room.status === 'PLAYING' ? (d.gs.dealerSeat ?? null) : null;
  const dealer = lastDealerSeat === null ? undefined : now.find((_, i) => seats[i] === lastDealerSeat);
  // A last dealer who has left: the button goes on to whoever sat on their left (the first seat
  // after theirs, round the table), so their seat is kept just before that player's in the new order
  // (for a player in the first seat, before every seat: the button search goes round from the last).
  // Their old seat number kept as it was would put them anywhere: the same circle listed from another
  // player moved the button.
  const onTheirLeft =
    lastDealerSeat === null || dealer !== undefined
      ? undefined
      : (now.find((_, i) => (seats[i] as number) > lastDealerSeat) ?? now[0]);
  playerIds.forEach((id, i) => {
    edit(d, id).joinedAt = seats[i] as number;
  });
  // Strangers waiting for approval move behind everyone, in the order they asked: approved later,
  // they sit after the arranged table (as a newcomer does), not between two players it placed.
  let top = Math.max(seats[seats.length - 1] as number, d.gs.dealerSeat ?? Number.NEGATIVE_INFINITY);
  const waiting = Object.values(d.players)
    .filter((p) => !p.isApproved)
    .sort((a, b) => a.joinedAt - b.joinedAt);
  for (const p of waiting) {
    top = Math.max(top + 1, p.joinedAt);
    edit(d, p.id).joinedAt = top;
  }
  d.seatCache = null;
  if (dealer !== undefined) d.gs.dealerSeat = (d.players[dealer] as Player).joinedAt;
  // Half a seat before theirs: between them and the player before them, a seat nobody holds (seats
  // are whole numbers), so a later arrangement still finds no dealer and keeps it before the same
  // player. (The seat of the player before them, tried first, made a second arrangement take that
  // player for the dealer.)
  if (onTheirLeft !== undefined) d.gs.dealerSeat = (d.players[onTheirLeft] as Player).joinedAt - 0.5;
  emit(d, {
    type: 'seatsArranged',
    playerIds: [...playerIds],
    names: playerIds.map((id) => (d.players[id] as Player).name),
  });
  return null;
}

/**
 * sitOut (the engine's own): a player steps away for a while (dinner, a smoke, a call) and is not
 * dealt in, so posts no blinds, from the next hand until back; `away: false` brings them back for
 * the next deal. Without it the table deals them in every hand and the host folds for them every
 * time (`actFor`), and they pay every blind while away.
 *
 * - During play only ('Sitting out is only possible during a game'; 'This game has already ended.').
 * - A player for themself, or the host for anyone at the table (`playerId`; 'Only the host can sit
 *   another player out'). A stranger waiting for approval is not at the table ('You are not in this
 *   game' for themself, 'Selected player not found' from the host).
 * - It never touches the hand on the table: a player sitting out mid-hand plays it out or folds (the
 *   host can fold for them). It changes no chips. Asking for what already is changes nothing.
 * - New Hand needs two players with chips who are not sitting out ('Need at least 2 players with chips
 *   who are not sitting out' when there would be two otherwise). The button skips them like a player
 *   without chips.
 * - It keeps the undo point (undo.ts): `away` is nothing an undo restores, and it is read at the next
 *   deal. (It cleared it until session 29's audit: any player could make a wrong award stick by
 *   sitting out and back.)
 */
export function sitOut(
  d: Draft,
  actorId: string,
  away: boolean,
  playerId: string | undefined,
): Outcome | typeof UNCHANGED {
  if (typeof away !== 'boolean' || (playerId !== undefined && typeof playerId !== 'string'))
    return MSG.unknownCommand;
  if (d.room.status === 'ENDED') return MSG.gameEnded;
  const byHost = playerId !== undefined && playerId !== actorId;
  if (byHost && actorId !== d.room.hostId) return MSG.onlyHostSitOut;
  if (d.room.status !== 'PLAYING') return MSG.sitOutNotPlaying;
  const id = playerId ?? actorId;
  const p = playerById(d.players, id);
  if (p === undefined || !p.isApproved) return byHost ? MSG.playerNotFound : MSG.notInGame;
  if ((p.away === true) === away) return UNCHANGED;
  const q = edit(d, id);
  if (away) q.away = true;
  else delete q.away;
  emit(d, {
    type: 'sitOutChanged',
    playerId: id,
    name: p.name,
    away,
    ...(byHost ? { byHost: true as const } : {}),
  });
  return null;
}

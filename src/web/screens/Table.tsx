import { useRef, useState } from 'react';
import {
  betweenHands,
  callAmount,
  dealtIn,
  facingOf,
  formatCents,
  inHand,
  raiseLimits,
  STAGE_NAMES,
  stakeOnLeaving,
} from '../../engine';
import type { Player, Room } from '../../engine/types';
import type { Ack, RoomSnapshot, WireCommand } from '../../shared/protocol';
import { screenCovered, useAnnounced } from '../components/announcer';
import { ConfirmModal } from '../components/ConfirmModal';
import { useArrivalFocus, useFocusRescue } from '../components/focus';
import { FormError, SlowLine, useAction } from '../components/forms';
import { LeaveIcon } from '../components/icons';
import { useTurnBuzz, useWakeLock } from '../game/effects';
import { canRaise } from '../game/raise';
import {
  approvedPlayers,
  COMMUNITY_CARDS,
  canKeepSeat,
  fundedPlayers,
  livePots,
  playersInHand,
  playingHand,
  potNumber,
  potTotal,
} from '../game/view';
import type { SendCommand } from '../net/use-room';
import { endGame, table as t } from '../room-texts';
import { ActForButton } from './ActForButton';
import { ConfirmRemove } from './ConfirmRemove';
import { HandLog } from './HandLog';
import { HandOverModal } from './HandOverModal';
import { PendingCard } from './PendingCard';
import { RaiseModal } from './RaiseModal';
import { RebuyModal } from './RebuyModal';
import { Seat } from './Seat';
import { SeatLinkModal, type SeatLinkRequest } from './SeatLinkModal';
import { TableFoot } from './TableFoot';
import { TakeOverButton } from './TakeOverButton';
import { handResult, handWinnings, stageReached, useFoldWinAnimation, useTableNotice } from './table-moments';
import { UndoButton } from './UndoButton';
import { WinnerModal } from './WinnerModal';

export interface TableProps {
  snapshot: RoomSnapshot;
  me: string | null;
  send: SendCommand;
  onLeave: () => Promise<Ack<unknown>>;
  /** Whether the socket is connected (a 'No connection…' error goes when it is again). */
  online?: boolean;
  /**
   * The host's request for a link moving a player whose phone is away to a new phone (RoomApi's
   * seatLink); without it the seats offer no "Move Bob to a New Phone".
   */
  seatLink?: SeatLinkRequest | undefined;
  /**
   * Present when this phone holds the seat by a link (a friend's phone, lent): the leave question offers
   * "Give This Phone Back", which leaves the seat at the table and makes the phone its own player's
   * again (RoomApi's handBack), where leaving would take the player out of the game.
   */
  onHandBack?: (() => void) | undefined;
}

type Open = 'none' | 'raise' | 'fold' | 'winner' | 'rebuy' | 'end' | 'leave';

/** The game table (status PLAYING). */
export function Table({ snapshot, me, send, onLeave, online = true, seatLink, onHandBack }: TableProps) {
  const { room, presence } = snapshot;
  const gs = room.gameState;
  const isHost = me === room.hostId;
  const seats = approvedPlayers(room);
  const mine = me ? room.players[me] : undefined;
  const myTurn = !!me && gs.currentTurnPlayerId === me;
  const turnPlayer = gs.currentTurnPlayerId ? room.players[gs.currentTurnPlayerId] : undefined;
  const limits = myTurn && me ? raiseLimits(room, me) : null;
  const stillIn = !!mine && mine.isApproved && inHand(mine);
  const toCall = me && stillIn ? callAmount(room, me) : 0;
  const callText = formatCents(toCall);
  const stackText = mine ? formatCents(mine.stack) : '';
  // Large amounts (a rebuy may be $100,000,000.00) are too wide for the dock of a 320 px phone as they
  // are: from "$100,000.00" the Call button makes room for its amount, from "$1,000,000.00" the turn
  // line for the stack (styles.css .long-call, .long-stack).
  const longCall = callText.length > '$99,999.99'.length;
  const longStack = stackText.length > '$999,999.99'.length;
  const pots = livePots(room);
  const total = potTotal(room);
  const atShowdown = gs.stage === 'SHOWDOWN';
  const undecided = atShowdown && total > 0;
  const funded = fundedPlayers(room);
  // Those the next deal takes: with chips and not sitting out (the engine's dealtIn).
  const dealable = funded.filter(dealtIn);
  const foldWinShown = useFoldWinAnimation(room);
  const notice = useTableNotice(room, me);
  const winnings = handWinnings(room);
  const [open, setOpen] = useState<Open>('none');
  const close = () => setOpen('none');
  // The spec lets the host remove a player at any time (section 4): at the table too, so a player who
  // walked away on their turn does not hold the hand up (the engine folds them and passes the turn).
  const [removingId, setRemoving] = useState<string | null>(null);
  // As the room is now: the dialog's offer follows the player sitting out or coming back meanwhile.
  const removing = removingId ? room.players[removingId] : undefined;
  const act = useAction(online);
  const host = useAction(online);
  // The dock's error belongs to the room as it was when the button was pressed. Once the room has
  // moved on (the command went through after all, or the moment passed), it no longer says anything
  // true, so it is not shown: a stale 'No connection…' must not sit under the next turn.
  const [pressedAt, setPressedAt] = useState(snapshot.version);
  const press = (runner: ReturnType<typeof useAction>, command: WireCommand) => {
    setPressedAt(snapshot.version);
    act.setError(null);
    host.setError(null);
    void runner.run(() => send(command));
  };
  const dockError = snapshot.version === pressedAt ? (act.error ?? host.error) : null;
  // An action goes with what this screen shows its player facing (the engine's Facing): one tapped on a
  // stale screen (no connection, the table moved on meanwhile) is refused, not applied to a bet never seen.
  const facing = myTurn && me ? facingOf(room, me) : null;
  const turnAction = (action: 'FOLD' | 'CALL'): WireCommand =>
    facing ? { type: 'act', action, facing } : { type: 'act', action };
  // What the player faced when a turn dialog (raise, fold) opened: it closes when that changes, as when
  // the turn moves on. A phone back online went from "your turn, nothing to call" straight to "your
  // turn, $5.00 to call" with "Fold instead of checking?" still open, whose Check then called the $5.00
  // (the session-32 review).
  const facingKey = facing ? `${facing.handNumber}:${facing.stage}:${facing.toCall}` : null;
  const [openedFacing, setOpenedFacing] = useState<string | null>(null);
  const openTurnDialog = (kind: 'raise' | 'fold') => {
    setOpenedFacing(facingKey);
    setOpen(kind);
  };

  // A dialog whose moment has passed (the turn moved on or what it faces changed, the pot was awarded,
  // the player to remove left or was removed from another phone) closes itself.
  if (
    ((open === 'raise' || open === 'fold') && (!myTurn || facingKey !== openedFacing)) ||
    (open === 'winner' && !undecided)
  )
    setOpen('none');
  if (removingId && !removing) setRemoving(null);
  // The host's "Move Bob to a New Phone" (SeatLinkModal.tsx), for a player at the table whose phone is
  // away. Open, it stays while Bob's phone comes and goes (it says when his seat is connected again)
  // and closes when he leaves or is removed: a link to a seat no longer at the table moves nothing. It
  // closes too when the host role moves: this phone no longer hands links out, and the host's seat
  // (Bob's, handed the role) never goes by link (the server refuses it).
  const [movingId, setMoving] = useState<string | null>(null);
  const moving = movingId ? room.players[movingId] : undefined;
  if (movingId && (!moving?.isApproved || !isHost || moving.isHost)) setMoving(null);
  const canMove = (p: Player) => !!seatLink && isHost && !p.isHost && !presence[p.id];

  useTurnBuzz(myTurn);
  useWakeLock(true);
  const heading = useRef<HTMLHeadingElement>(null);
  useFocusRescue(heading);
  useArrivalFocus(heading);
  // Said through the announcer, outside #root (announcer.ts): the turn when the table opens (the dock's
  // turn line is new then, often unread) and while a dialog covers the screen (the line is inert then;
  // otherwise it says each turn itself), and each hand's result, which nothing else reads out.
  const turnKey = gs.currentTurnPlayerId ? `${gs.handNumber}:${gs.stage}:${gs.currentTurnPlayerId}` : null;
  const turnSaid = myTurn ? t.yourTurn : turnPlayer ? t.playersTurn(turnPlayer.name) : '';
  useAnnounced(turnKey, turnSaid, { onMount: true, onlyIf: screenCovered });
  const result = handResult(room);
  useAnnounced(result?.key ?? null, result?.text ?? '');
  // A latecomer approved while watching the table: "You will be dealt in when…" just went.
  useAnnounced(mine?.isApproved ? 'approved' : null, t.approvedAtTable);

  // Spec banners by autoAdvancedReason; a showdown reached by playing the river just says what is next.
  const showdownBanner = !undecided
    ? null
    : gs.autoAdvancedReason === 'ALL_REMAINING_ALL_IN'
      ? t.allPlayersAllIn
      : gs.autoAdvancedReason
        ? t.bettingComplete
        : null;
  // An all-in showdown before the river: the dealer still turns the rest of the board over.
  const reached = undecided && gs.autoAdvancedReason ? stageReached(room) : null;
  const boardToDeal = reached && reached !== 'RIVER' ? t.dealRest(reached) : null;
  // The host's showdown, said (the banner appears with its text, often unread, and the host's dock
  // line is empty then): what happened and that the winner is theirs to declare.
  useAnnounced(
    undecided && isHost ? `declare:${gs.handNumber}` : null,
    [showdownBanner, boardToDeal, t.hostCanDeclare]
      .filter((s) => s !== null)
      .map((s) => (/[.!?]$/.test(s) ? s : `${s}.`))
      .join(' '),
  );
  // The board as the real table has it: a showdown has five cards (the dealer turns the rest over for
  // an all-in), but a hand won by folds stops where the betting did: "5 of 5 community cards dealt"
  // after a fold before the flop (session 36's accessibility audit).
  const foldedTo = atShowdown && playersInHand(room).length === 1 ? stageReached(room) : null;
  const cardsDealt = COMMUNITY_CARDS[foldedTo ?? gs.stage];
  const handDone = betweenHands(gs);
  const chipless = !!mine && mine.isApproved && mine.stack === 0 && handDone;
  const onlyOneFunded = handDone && funded.length < 2;
  const onlyOneIn = handDone && !onlyOneFunded && dealable.length < 2;
  // Sitting out keeps a seat and chips: nothing to keep for a player with none who is not in the hand.
  const canSitOut = !!mine && canKeepSeat(room, mine);
  // The dock's line for a player sitting out: still in this hand, they sit out from the next one.
  const awayNext = !!mine?.away && stillIn;

  return (
    <main className={myTurn ? 'screen table my-turn' : 'screen table'}>
      <header className="table-head">
        <div className="table-head-row">
          <div className="cards" role="img" aria-label={t.communityCards(cardsDealt)}>
            {[0, 1, 2, 3, 4].map((i) => (
              <span key={i} className={i < cardsDealt ? 'card-slot dealt' : 'card-slot'} />
            ))}
          </div>
          {/* The host's too: it asks them to hand the host role over first (HandOverModal). */}
          <button
            type="button"
            className="icon-button"
            aria-label={t.leaveLabel}
            onClick={() => setOpen('leave')}
          >
            <LeaveIcon />
          </button>
        </div>
        <h1 className="stage" ref={heading} tabIndex={-1}>
          {STAGE_NAMES[gs.stage]}
        </h1>
        <div className="pot-line">
          <p className="pot">
            <span className="label">{pots.length > 1 ? t.pots(pots.length) : t.pot}</span>
            <span className="amount big">{formatCents(total)}</span>
          </p>
          {stillIn && gs.currentTurnPlayerId !== null ? (
            <p className="to-call">
              <span className="label">{t.toCall}</span>
              <span className="amount">{formatCents(toCall)}</span>
            </p>
          ) : null}
        </div>
        {pots.length > 1 ? (
          <ul className="pot-list">
            {pots.map((p) => (
              <li key={p.id}>
                {p.isMainPot ? t.mainPot : t.sidePot(potNumber(p))} {formatCents(p.amount)}
              </li>
            ))}
          </ul>
        ) : null}
      </header>

      {undecided ? (
        <div className="banner showdown" role="status">
          {showdownBanner ? <strong>{showdownBanner}</strong> : null}
          {boardToDeal ? <span>{boardToDeal}</span> : null}
          <span className={showdownBanner ? undefined : 'strong'}>{t.hostCanDeclare}</span>
        </div>
      ) : null}
      {chipless ? (
        <div className="banner chipless" role="status">
          <strong>{t.chipless}</strong>
          <span>{isHost ? t.chiplessHost : t.chiplessText}</span>
        </div>
      ) : null}
      {onlyOneFunded ? (
        <div className="banner warning" role="status">
          <strong>{t.onlyOneFunded}</strong>
          <span>{t.onlyOneFundedText}</span>
        </div>
      ) : null}
      {onlyOneIn ? (
        <div className="banner warning" role="status">
          <strong>{t.onlyIn(dealable.length)}</strong>
          <span>{t.onlyInText(dealable.length, isHost)}</span>
        </div>
      ) : null}

      {/* Above the seats, under the table's head: a latecomer standing by the table is seen at once,
          not under the dock after six seats (the host audit of session 29 found it there, unseen). */}
      {isHost ? <PendingCard snapshot={snapshot} send={send} online={online} /> : null}

      <ul className="seats" aria-label={t.hand(gs.handNumber)}>
        {seats.map((p) => (
          <Seat
            key={p.id}
            player={p}
            me={me}
            online={presence[p.id] ?? false}
            turn={gs.currentTurnPlayerId === p.id}
            winner={gs.winnerIds.includes(p.id)}
            won={winnings.get(p.id)}
            handDone={handDone}
            onRemove={isHost && !p.isHost ? () => setRemoving(p.id) : undefined}
            onMove={canMove(p) ? () => setMoving(p.id) : undefined}
          />
        ))}
      </ul>

      {mine && !mine.isApproved ? <p className="muted center">{t.notSeated}</p> : null}

      <HandLog room={room} />

      <TableFoot room={room} isHost={isHost} send={send} />

      <div className="dock">
        <FormError message={dockError} />
        {/* Fold, Call and the host's deal grey out while their answer is on its way; on a slow link
            that alone reads as a tap that did nothing. */}
        <SlowLine pending={act.pending || host.pending} />
        {/* One live region that is always there, so screen readers announce each turn change
            ("Your Turn", "Bob's Turn"); a region that appears along with its text is often not read. */}
        <div className={longStack ? 'turn-status long-stack' : 'turn-status'} role="status">
          {notice ? <p className="table-notice">{notice}</p> : null}
          {myTurn && mine ? (
            <p className="turn-title">
              {t.yourTurn}
              {/* The stack to decide with, under the thumb: at a full table on a small phone the
                  player's own seat is scrolled away on their turn. Screen readers have it in the seat
                  list; the live region announces the turn alone. */}
              <span className="turn-stack" aria-hidden="true">
                <span className="turn-sep">{' · '}</span>
                {t.stack} <span className="nowrap">{stackText}</span>
              </span>
            </p>
          ) : (
            <WaitingLine
              room={room}
              isHost={isHost}
              turnPlayer={turnPlayer}
              blocked={onlyOneFunded || onlyOneIn}
            />
          )}
          {/* Sitting out is read out here too when it starts or changes (the host may have done it
              from another phone); the line with I'm Back below appears with its text, unannounced. */}
          {mine?.away ? <span className="sr-only">{awayNext ? t.awayNextTitle : t.awayTitle}</span> : null}
        </div>
        {myTurn && mine ? (
          <section className="actions" aria-label={t.yourTurn}>
            <div className={longCall ? 'action-row long-call' : 'action-row'}>
              <button
                type="button"
                className="button danger large"
                disabled={act.pending}
                // Folding when a check is free is almost always a slip of the thumb, and a fold cannot
                // be taken back: asked first. Facing a bet it goes at once.
                aria-haspopup={toCall > 0 ? undefined : 'dialog'}
                onClick={() => (toCall > 0 ? press(act, turnAction('FOLD')) : openTurnDialog('fold'))}
              >
                {t.fold}
              </button>
              <button
                type="button"
                className="button secondary large"
                disabled={act.pending}
                onClick={() => press(act, turnAction('CALL'))}
              >
                {toCall > 0 ? (
                  // One run of text: "Call" goes over the amount when both do not fit, and the amount
                  // never breaks inside.
                  <span>
                    {t.call} <span className="nowrap call-amount">{callText}</span>
                  </span>
                ) : (
                  t.check
                )}
              </button>
              <button
                type="button"
                className="button primary large"
                disabled={act.pending || !canRaise(limits)}
                aria-haspopup="dialog"
                onClick={() => openTurnDialog('raise')}
              >
                {t.raise}
              </button>
            </div>
          </section>
        ) : null}

        {mine?.away ? (
          // One row: the dock stays short on a small phone (the leave dialog said what sitting out is).
          <section className="away-line" aria-label={awayNext ? t.awayNextTitle : t.awayTitle}>
            <strong>{awayNext ? t.awayNextTitle : t.awayTitle}</strong>
            <button
              type="button"
              className="button primary"
              disabled={act.pending}
              onClick={() => press(act, { type: 'sitOut', away: false })}
            >
              {awayNext ? t.stayIn : t.imBack}
            </button>
          </section>
        ) : null}
        {!isHost ? (
          <TakeOverButton room={room} presence={presence} me={me} send={send} idle={snapshot.idle} />
        ) : null}
        {isHost ? (
          <section className="host-controls" aria-label={t.hostControls}>
            <ActForButton room={room} presence={presence} me={me} send={send} idle={snapshot.idle} />
            {gs.canAdvanceStage ? (
              <button
                type="button"
                className="button primary block large"
                disabled={host.pending}
                onClick={() => press(host, { type: 'advanceStage' })}
              >
                {gs.nextStageName ?? t.nextStage}
              </button>
            ) : null}
            {undecided ? (
              <button
                type="button"
                className="button primary block large"
                aria-haspopup="dialog"
                onClick={() => setOpen('winner')}
              >
                {t.declareWinner}
              </button>
            ) : null}
            {handDone && dealable.length >= 2 ? (
              <button
                type="button"
                className="button primary block large"
                disabled={host.pending}
                onClick={() => press(host, { type: 'newHand' })}
              >
                {t.newHand}
              </button>
            ) : null}
            <div className="button-row host-row">
              <UndoButton room={room} send={send} className="button secondary undo-button" />
              {room.settings.enableRebuys ? (
                <button
                  type="button"
                  className="button secondary"
                  aria-haspopup="dialog"
                  onClick={() => setOpen('rebuy')}
                >
                  {t.rebuys}
                </button>
              ) : null}
              <button
                type="button"
                className="button danger-outline"
                aria-haspopup="dialog"
                onClick={() => setOpen('end')}
              >
                {t.endGame}
              </button>
            </div>
          </section>
        ) : null}
      </div>

      {foldWinShown ? (
        // Not a live region: the result is said through the announcer (handResult above).
        <div className="win-overlay">
          <div className="win-card">
            <div className="win-chip" aria-hidden="true" />
            <p className="win-title">{t.autoWinner(foldWinShown.name)}</p>
            <p className="amount big">{formatCents(foldWinShown.amount)}</p>
            <p>{t.autoWinnerText}</p>
          </div>
        </div>
      ) : null}

      {open === 'raise' && me ? <RaiseModal room={room} playerId={me} send={send} onClose={close} /> : null}
      {open === 'winner' ? <WinnerModal room={room} send={send} onClose={close} /> : null}
      {open === 'rebuy' ? <RebuyModal room={room} send={send} onClose={close} /> : null}
      {open === 'fold' ? (
        <ConfirmModal
          title={t.foldFreeTitle}
          text={t.foldFreeText}
          confirmLabel={t.fold}
          danger
          onConfirm={() => send(turnAction('FOLD'))}
          // The thumb that slipped onto Fold meant Check: one tap, not Cancel and Check.
          alternative={{ label: t.check, onConfirm: () => send(turnAction('CALL')) }}
          onClose={close}
        />
      ) : null}
      {open === 'end' ? (
        <ConfirmModal
          title={endGame.title}
          text={total > 0 ? `${endGame.text} ${endGame.callOff}` : endGame.text}
          confirmLabel={endGame.confirm}
          pendingLabel={endGame.loading}
          danger
          onConfirm={() => send({ type: 'endGame' })}
          onClose={close}
        />
      ) : null}
      {removing ? (
        <ConfirmRemove
          player={removing}
          stake={stakeOnLeaving(room, removing.id)}
          send={send}
          onClose={() => setRemoving(null)}
          sitOut={
            removing.away === true
              ? playingHand(room, removing)
                ? 'bringBackInHand'
                : 'bringBack'
              : canKeepSeat(room, removing)
                ? 'offer'
                : undefined
          }
        />
      ) : null}
      {moving?.isApproved && seatLink ? (
        <SeatLinkModal
          player={moving}
          online={presence[moving.id] ?? false}
          seatLink={seatLink}
          onClose={() => setMoving(null)}
        />
      ) : null}
      {open === 'leave' && isHost && me !== null ? (
        <HandOverModal room={room} me={me} send={send} onClose={close} onHandBack={onHandBack} />
      ) : open === 'leave' ? (
        // Stepping away for a while is not leaving: sitting out keeps the seat and the chips (ours).
        <ConfirmModal
          title={t.leaveTitle}
          text={
            mine && !mine.isApproved
              ? t.leaveWaiting
              : onHandBack
                ? `${leaveQuestion(room, me, false)} ${t.leaveOrHandBack}`
                : leaveQuestion(room, me, canSitOut)
          }
          confirmLabel={t.leaveConfirm}
          danger
          onConfirm={onLeave}
          alternative={
            onHandBack
              ? {
                  label: t.handBack,
                  onConfirm: async () => {
                    onHandBack();
                    return { ok: true, data: null };
                  },
                }
              : canSitOut
                ? { label: t.sitOutInstead, onConfirm: () => send({ type: 'sitOut', away: true }) }
                : undefined
          }
          onClose={close}
        />
      ) : null}
    </main>
  );
}

/** The leave question of a seated player: the chips in the pot first, then the results, then sitting out. */
function leaveQuestion(room: Room, me: string | null, canSitOut: boolean): string {
  const stake = me === null ? null : stakeOnLeaving(room, me);
  const parts = [t.leaveText];
  if (stake !== null) parts.unshift(t.leaveStake(formatCents(stake.stays), formatCents(stake.bet)));
  if (canSitOut) parts.push(t.leaveOrSitOut);
  return parts.join(' ');
}

/**
 * What the table waits for, on the dock of a player who is not to act. `blocked`: no hand can be dealt
 * (a banner says why and what the host can do), so it does not say the host is about to deal one: a
 * busted guest read 'Waiting for the host to start a new hand' under 'Rebuy or End Game to continue'
 * (the session-32 audit).
 */
function WaitingLine({
  room,
  isHost,
  turnPlayer,
  blocked,
}: {
  room: Room;
  isHost: boolean;
  turnPlayer?: Player;
  blocked: boolean;
}) {
  const gs = room.gameState;
  const total = potTotal(room);
  let title: string;
  let text: string | null;
  if (turnPlayer) {
    title = t.playersTurn(turnPlayer.name);
    text = t.waitingAction;
  } else if (gs.canAdvanceStage) {
    title = t.roundComplete;
    text = isHost ? null : t.waitingDeal(gs.nextStageName ?? t.nextStage);
  } else if (gs.stage === 'SHOWDOWN') {
    if (isHost) return null;
    title = STAGE_NAMES.SHOWDOWN;
    text = total > 0 ? t.waitingDeclare : blocked ? null : t.waitingNewHand;
  } else {
    title = t.waitingPlayer;
    text = t.toAct;
  }
  return (
    <div className="waiting-line">
      <strong>{title}</strong>
      {/* A space between, so the two are read as two ("Bob's Turn Waiting…", not "TurnWaiting"). */}
      {text ? <span> {text}</span> : null}
    </div>
  );
}
